"""mediatore-web: the table in the browser (:mod:`.app`, the server; :mod:`.tables`, the
tables without the web; ``static/``, the page). See docs/web.md."""
