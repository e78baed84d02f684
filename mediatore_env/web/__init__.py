"""mediatore-web: the table in the browser (:mod:`.app`, the server; :mod:`.tables`, the
tables without the web; :mod:`.lobby`, who may reach them; :mod:`.history`, the games kept;
``static/``, the page). See docs/web.md."""
