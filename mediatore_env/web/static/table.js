// The table in the browser: draws what the server sends (a seat's view_json) and sends the
// person's clicks back. It never decides what is legal: only the moves the server lists are
// buttons. No build step, no library: the cards are SVG drawn here, the suits are the symbols
// of index.html.
"use strict";
const $ = (id) => document.getElementById(id);
const PACE = Number(new URLSearchParams(location.search).get("pace") ?? 700);
const STILL = matchMedia("(prefers-reduced-motion: reduce)");
const SVG = "http://www.w3.org/2000/svg";
// Cards travel for part of the pause between two moves, never longer than it. A finished
// trick stays two pauses (drain): it rests whole, to be read, and travels to its winner at the
// end of them, not as soon as its last card lands.
const TRAVEL = Math.min(PACE * 0.5, 420);
document.documentElement.style.setProperty("--travel", `${TRAVEL}ms`);
document.documentElement.style.setProperty("--rest", `${2 * PACE - TRAVEL}ms`);
let games = [], play = null, watch = null, queue = [], busy = false, mode_ = "play";
// the events' pacing: the pause after the event last shown (its timer), and the seat whose card
// that event played, still travelling or resting on the felt when the table becomes the seat's
let pause = null, drawn = null;
// Played from the keyboard (the last key or pointer pressed was a key): each redraw replaces the
// buttons, and the focus with them fell back to the page's start, five Tabs (the tabs, New table)
// before the next move. It goes to what asks for the person next instead, the hand's first
// legal card or move, Next hand, Next deal; never away from what they moved it to themselves.
let keyed = false;
addEventListener("keydown", () => { keyed = true; }, true);
addEventListener("pointerdown", () => { keyed = false; }, true);
function refocus(node) {
  if (keyed && node && (!document.activeElement || document.activeElement === document.body)) node.focus();
}

// Every request about a table carries its seat's token (the server answers no one else).
async function api(method, path, body) {
  const headers = {"Content-Type": "application/json"};
  if (play && play.token && path.startsWith("/api/games/")) headers.Authorization = `Bearer ${play.token}`;
  const response = await fetch(path, {method, headers,
                                      body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), {status: response.status});
  $("error").textContent = "";
  return data;
}
const shout = (e) => { $("error").textContent = e.message; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const signed = (x) => (x > 0 ? "+" : "") + (Number.isInteger(x) ? x : x.toFixed(2));

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v; else if (k === "on") node.onclick = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}
function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// -- the cards: rank and suit drawn, the suit by its shape (index.html's symbols) -------------
// A card's tag is its suit letter and its rank's (D3, CA, SF, BR): A 2-7 F (fante) C (cavallo)
// R (re). Number cards show that many pips; the three figures a framed letter.
const PIPS = {1: [[30, 45]], 2: [[30, 27], [30, 63]], 3: [[30, 24], [30, 45], [30, 66]],
  4: [[19, 28], [41, 28], [19, 62], [41, 62]], 5: [[19, 26], [41, 26], [30, 45], [19, 64], [41, 64]],
  6: [[19, 24], [41, 24], [19, 45], [41, 45], [19, 66], [41, 66]],
  7: [[19, 24], [41, 24], [30, 34], [19, 45], [41, 45], [19, 66], [41, 66]]};

function pip(suit, x, y, size) {
  return svg("use", {href: `#suit-${suit}`, x: x - size / 2, y: y - size / 2, width: size, height: size});
}

function cardFace(c) {
  const mark = c.tag.slice(1), suit = c.suit_index;
  const face = svg("svg", {viewBox: "0 0 60 90", class: "face", role: "img", "aria-label": c.text});
  face.append(svg("rect", {x: 1, y: 1, width: 58, height: 88, rx: 6, class: "paper"}));
  for (const [x, y, turn] of [[7, 14, 0], [53, 76, 180]]) {
    const corner = svg("g", {transform: `rotate(${turn} ${x} ${y - 4})`});
    const text = svg("text", {x, y, class: "index", "text-anchor": "middle"});
    text.textContent = mark;
    corner.append(text, pip(suit, x, y + 8, 9));
    face.append(corner);
  }
  if (mark === "A") face.append(pip(suit, 30, 45, 30));
  else if ("FCR".includes(mark)) {
    face.append(svg("rect", {x: 13, y: 18, width: 34, height: 54, rx: 3, class: "frame"}));
    const letter = svg("text", {x: 30, y: 44, class: "figure", "text-anchor": "middle"});
    letter.textContent = mark;
    face.append(letter, pip(suit, 30, 58, 16));
  } else for (const [x, y] of PIPS[Number(mark)] || []) face.append(pip(suit, x, y, 13));
  return face;
}

// A card of the page: a button when it is a legal move, with the words people read as its name.
function card(c, clickable = false) {
  return el(clickable ? "button" : "div", {class: `card suit-${c.suit_index}` + (clickable ? " legal" : ""),
                                           title: c.text, "data-card": c.tag}, cardFace(c));
}
const back = () => el("span", {class: "back"});

// Cards picked before they go (a Mediatore declarer's four discards, the card passed back):
// as at a card table, the cards are chosen and changed at will, then sent together, one move
// each as the server answers the one before (settle sends the rest).
function pick(tag, node, choose) {
  const i = play.chosen.indexOf(tag);
  if (i >= 0) play.chosen.splice(i, 1);
  else if (play.chosen.length < choose.count) play.chosen.push(tag);
  node.classList.toggle("chosen", play.chosen.includes(tag));
  $("send-chosen").replaceWith(sendButton(choose));
}
function sendButton(choose) {
  const left = choose.count - play.chosen.length;
  return el("button", {id: "send-chosen", class: "move", "data-count": choose.count, disabled: left > 0,
                       on: () => {
                         const moves = Object.fromEntries([...document.querySelectorAll("#hand [data-move]")]
                           .map((n) => [n.dataset.card, +n.dataset.move]));
                         play.pending = play.chosen.map((tag) => moves[tag]);
                         play.chosen = [];
                         sendMove(play.pending.shift());
                       }},
    left > 0 ? `${choose.verb}: pick ${left}${left < choose.count ? " more" : ""} card${left > 1 ? "s" : ""}`
             : `${choose.verb} ${choose.count === 1 ? "this card" : `these ${choose.count}`}`);
}

// A move's button; ``label``, shorter than its words (which it then shows when pointed at).
function moveButton(m, label = m.words) {
  return el("button", {class: "move", "data-move": m.move, title: label === m.words ? null : m.words,
                       on: () => sendMove(m.move)}, label);
}

// The cards a move names without playing them (a call): a row a suit, those of your own hand
// marked, not forty buttons in the order of their ids. The server sends them strongest first.
function callGrid(named, hand) {
  if (!named.length) return [];
  const held = new Set(hand.map((c) => c.tag));
  return [el("div", {class: "call-grid"}, ...[0, 1, 2, 3].map((suit) => {
    const row = named.filter((m) => m.names.suit_index === suit);
    return row.length ? el("div", {class: "call-row"}, ...row.map((m) => {
      const mine = held.has(m.names.tag);
      return el("button", {class: "call" + (mine ? " held" : ""), "data-move": m.move, on: () => sendMove(m.move),
                           title: m.words + (mine ? " (in your hand)" : "")}, chip(m.names));
    })) : null;
  }))];
}

// -- the table: seats round it, you at the bottom ---------------------------------------------
// Play goes round to the right (the Italian way): the next seat sits on your right.
const PLACES = {4: ["bottom", "right", "top", "left"], 3: ["bottom", "right", "left"], 2: ["bottom", "top"]};
function place(seat, viewer, players) {
  const places = PLACES[players] || PLACES[4];
  return places[((seat - (viewer ?? 0)) % players + players) % players];
}

// render(view, options): the whole table as ``view``'s seat sees it. options: interactive (the
// moves are buttons), seats (the server's who-sits-where), open (every seat's view, watching),
// arriving (the seat whose card has just been played), lastShown (the last trick on demand).
function render(view, options = {}) {
  $("table").hidden = false;
  $("brief").textContent = brief(view);
  drawSeats(view, options);
  drawTrick(view, options);
  $("facts").replaceChildren(...view.panels.map((p) => drawPanel(p, view)));
  drawHand(view, options);
}

// The seats round the table: each name, its cards left, whether it is here, whose turn it is.
function drawSeats(view, options) {
  const n = view.players, names = view.names, me = view.seat;
  const seats = options.seats || [];
  const info = (s) => seats[s] || {};
  $("felt").dataset.players = n;
  $("seats").replaceChildren(...names.map((name, s) => {
    const who = info(s), toMove = view.to_move === s;
    const status = who.kind === "person" && !who.taken ? "free seat"
      : who.away ? "away: the stand-in plays" : who.kind === "person" && !who.present && s !== me ? "not here" : null;
    const openHand = options.open && options.open[s];
    const side = view.sides[s];
    return el("div", {class: `seat at-${place(s, me, n)}` + (toMove ? " to-move" : "") + (s === me ? " mine" : "")
                      + (side === null ? "" : ` side-${side}`), "data-seat": s, "data-side": side ?? undefined},
      // on one line, cut short where the seat is narrower (a phone's side seat): whole in its title
      el("div", {class: "seat-name", title: name + (who.kind === "agent" ? " (agent)" : "")},
        seatName(name), who.kind === "agent" ? el("span", {class: "kind"}, " agent") : null),
      seatMarks(view, s),
      el("div", {class: "seat-cards", title: `${view.hand_sizes[s]} cards`},
        ...(openHand || s === me ? [] : Array.from({length: Math.min(view.hand_sizes[s], 10)}, back)),
        // the word apart: beside the backs a phone shows the number alone (the CSS)
        el("span", {class: "count"}, `${view.hand_sizes[s]}`,
           el("span", {class: "unit"}, ` card${view.hand_sizes[s] === 1 ? "" : "s"}`))),
      status ? el("div", {class: "seat-status"}, status) : null,
      // always a line, blank but for the seat to move: the felt keeps its height as turns pass
      // "your turn" only while the hand is live (an event shown on the way is not yet the seat's)
      el("div", {class: "seat-turn"}, !toMove ? "\u00a0" : s === me && options.interactive ? "your turn" : "to play"),
      openHand ? el("div", {class: "cards open"}, ...openHand.hand.map((c) => card(c))) : null);
  }));
}

// A seat's name, its seat's number apart ("generic-gree" and "(1)"): a name cut short is cut
// in its middle (the CSS), its number in sight, the one thing that tells "generic-gree(1)" from
// "generic-gree(3)" as the trick, the panels and the news name them.
function seatName(name) {
  const [, stem, number] = /^(.*?)(\(\d+\))?$/s.exec(name);
  return el("span", {class: "label"}, el("span", {class: "stem"}, stem),
            number ? el("span", {class: "number"}, number) : null);
}

// What a seat is at this deal, as the server knows the viewer may know it: the dealer, the
// first hand (il mano), and its roles (declarer, partner, giver, mediator).
function seatMarks(view, s) {
  const marks = [...(view.dealer === s ? ["dealer"] : []), ...(view.mano === s ? ["mano"] : []), ...view.roles[s]];
  // always there, empty or not: a seat keeps its height when its first mark comes
  return el("div", {class: "marks"}, ...marks.map((m) => el("span", {class: `mark ${m}`, "data-mark": m}, m)));
}

// Your hand at the bottom, the legal cards raised; the moves that are not cards as buttons.
function drawHand(view, options) {
  const moves = options.interactive ? view.moves : [];
  const byCard = {};
  for (const m of moves) if (m.card) (byCard[m.card] ??= []).push(m);
  // why a card of the hand is not playable while others are: the suit led must be followed
  const led = view.trick.length ? view.trick[0].card : null;
  const playable = view.hand.filter((c) => byCard[c.tag]);
  const follow = led && playable.length && playable.every((c) => c.suit_index === led.suit_index);
  // cards picked before they go (the discards): a click picks or puts back, the button sends
  const choose = moves.length ? view.choose : null;
  if (play) play.chosen = choose ? play.chosen.filter((tag) => byCard[tag]).slice(0, choose.count) : [];
  // cards new to the hand, marked: the one drawn from the stock after the last trick
  // (two-handed), until the next trick; during the exchange, those taken from the monte or
  // the widow, among which the discards are picked
  const panel = (kind) => view.panels.find((x) => x.kind === kind);
  const badges = {};
  const stock = panel("stock"), monte = panel("monte"), widow = panel("widow");
  const drawn = stock?.fresh && stock.draws.slice(-2).find((d) => d.seat === view.seat && d.card);
  if (drawn) badges[drawn.card.tag] = "drawn";
  if (choose) {
    for (const c of Array.isArray(monte?.seen) ? monte.seen : []) badges[c.tag] = "monte";
    for (const c of Array.isArray(widow?.widow) ? widow.widow : []) badges[c.tag] = "widow";
    const contract = panel("contract");  // the called card its holder gave the declarer
    if (contract?.called && contract.giver != null) badges[contract.called.tag] = "given";
  }
  // the badge an element of its card, over it: a box the page lays out (and a test measures)
  const marked = (node, c) => {
    const badge = badges[c.tag];
    if (badge) {
      node.dataset.badge = badge;
      node.append(el("span", {class: "badge"}, badge));
    }
    return node;
  };
  $("hand").classList.toggle("crowded", view.hand.length > 11);
  $("hand").replaceChildren(...(options.open ? [] : view.hand).map((c) => {
    const mine = byCard[c.tag];
    if (!mine) {
      const node = marked(card(c), c);
      if (follow) node.title = `${c.text}: you must follow ${led.suit}`;
      return node;
    }
    const node = marked(card(c, true), c);
    if (choose) {
      node.setAttribute("data-move", mine[0].move);
      node.classList.toggle("chosen", play.chosen.includes(c.tag) || play.pending.includes(mine[0].move));
      node.onclick = () => pick(c.tag, node, choose);
    } else if (mine.length === 1) { node.setAttribute("data-move", mine[0].move);
                                    node.onclick = () => sendMove(mine[0].move); }
    else {  // a lead with its signals: the card opens its moves as buttons, each named by its signal
      node.setAttribute("data-moves", mine.map((m) => m.move).join(" "));
      node.onclick = () => $("moves").replaceChildren(el("span", {}, `${c.text}: `),
                                                      ...mine.map((m) => moveButton(m, m.signal ?? "no signal")));
    }
    return node;
  }));
  // the cards to call: on the felt where they fit there whole (the CSS says why), a suit a
  // row, or a suit two rows of five where a row is wider than the felt's middle (a laptop's
  // 1024 pixels); else under the banner, a suit a row
  const grid = callGrid(moves.filter((m) => m.names), view.hand), call = $("call");
  call.replaceChildren(...grid);
  call.hidden = !grid.length;
  const centre = $("centre");  // the middle of the felt (on a phone, #call would cover it all)
  const fits = () => call.scrollWidth <= centre.clientWidth && call.scrollHeight <= centre.clientHeight;
  const onFelt = grid.length > 0 && (fits() || (grid[0].classList.add("folded"), fits()));
  if (!onFelt) {
    call.hidden = true;
    grid[0]?.classList.remove("folded");
  }
  // each button its words (moveButton(m), not map's (m, index): its place in the list would be its label)
  $("moves").replaceChildren(...moves.filter((m) => !m.card && !m.names).map((m) => moveButton(m)),
                             ...(onFelt ? [] : grid), ...(choose ? [sendButton(choose)] : []));
  const last = view.last_trick;
  $("show-last").disabled = !last;
  // its way back: to the trick on the table, or to the end's summary once over
  $("show-last").textContent = options.lastShown ? (view.over ? "The end" : "This trick") : "Last trick";
  const yours = options.interactive && moves.length > 0;
  if (yours) refocus(document.querySelector("#hand button.card, #call button, #moves button:not(:disabled)"));
  banner(yours ? `Your turn · ${view.question || "choose"}` : view.over ? "" : options.waiting || "", yours);
  document.title = (yours ? "▶ Your turn · " : "") + "mediatore-web";
}

// The banner over the hand: what the person is asked, or waited for. It keeps its height
// (the CSS's) whatever it says, so that the hand below it stays put from one step to the next:
// words longer than its room (a question of two lines: "Pass one card face down to the
// player who gave you the called card") are said in smaller letters, down to 11 px.
function banner(text, yours = false) {
  const node = $("turn");
  node.className = yours ? "yours" : "";
  node.textContent = text;
  node.style.fontSize = "";
  let size = parseFloat(getComputedStyle(node).fontSize);
  while (node.scrollHeight > node.clientHeight && size > 11) node.style.fontSize = `${--size}px`;
}

// The trick in the middle, each card in front of the seat that played it, a signal on the
// card it goes with; a finished trick is shown, then travels to its winner.
function drawTrick(view, options) {
  const n = view.players, me = view.seat, box = $("trick"), last = view.last_trick;
  let plays = view.trick, winner = null, leaving = "";
  if (options.lastShown && last) {
    plays = last.cards; winner = last.winner;
  } else if (!plays.length && last && options.arriving !== undefined && options.arriving !== null
             && last.cards[last.cards.length - 1].seat === options.arriving) {
    plays = last.cards; winner = last.winner;  // the card just played finished the trick
    if (!STILL.matches && PACE > 0) leaving = place(winner, me, n);
  }
  box.dataset.leaving = leaving;
  box.classList.toggle("last", Boolean(options.lastShown && last));
  box.replaceChildren(...plays.map((p, i) => el("div",
    {class: `played at-${place(p.seat, me, n)}` + (p.seat === options.arriving && !STILL.matches ? " arriving" : "")
            + (p.seat === winner ? " winner" : "") + (i === 0 ? " lead" : ""), "data-seat": p.seat},
    card(p.card), p.signal ? el("span", {class: "signal"}, p.signal) : null,
    i === 0 ? el("span", {class: "lead-mark"}, "lead") : null,
    el("span", {class: "who", title: view.names[p.seat]}, view.names[p.seat]))),
    ...(winner !== null ? [el("div", {class: "caption"},
      `${options.lastShown ? "last trick, " : ""}won by ${view.names[winner]}`)] : []));
}

// -- the panels: the game's facts as the server gives them, each kind drawn as what it is -------
// A card named in a panel: its suit's shape and its rank, in its suit's colour.
function chip(c) {
  const shape = svg("svg", {viewBox: "0 0 24 24", class: "pip", "aria-hidden": "true"});
  shape.append(svg("use", {href: `#suit-${c.suit_index}`}));
  return el("span", {class: `chip suit-${c.suit_index}`, title: c.text, "data-card": c.tag}, shape, c.tag.slice(1));
}
const chips = (cards) => (cards && cards.length ? el("span", {class: "chips"}, ...cards.map(chip)) : null);
// A table's text: a run of letters longer than a column need be (a name of forty letters and
// no space) is cut short on its line, whole in its title, so that it makes its column no wider
// than a name of the table's usual length and its table no wider than its box (the CSS); an
// arrow (Tressette's thirds rounded down, "7 1/3 -> 7") is not broken after its "-"; a name
// with spaces, a card, a number is as it is.
function fitted(text) {
  const node = document.createDocumentFragment();
  String(text).split(/(\S{13,}|->)/u).forEach((part, i) =>
    node.append(i % 2 === 0 ? part : part === "->" ? el("span", {class: "whole"}, part)
                : el("span", {class: "long", title: part}, part)));
  return node;
}
const cell = (v) => (v instanceof Node ? v : fitted(v ?? ""));
// A table: a head row, then rows whose first cell names them (a th), then a foot row so named.
function grid(head, rows, cls = "", foot = null) {
  const row = ([first, ...rest]) => el("tr", {}, el("th", {}, cell(first)), ...rest.map((v) => el("td", {}, cell(v))));
  return el("table", {class: `grid ${cls}`},
    head ? el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, cell(h))))) : null,
    el("tbody", {}, ...rows.map(row)), foot ? el("tfoot", {}, row(foot)) : null);
}
// A seat's name over a narrow column: "greedy" over "(1)", not "greedy(" over "1)".
const breakable = (name) => String(name).replace("(", "\u200b(");
// Named things, one a row, those with nothing to show left out.
const pairs = (rows) => grid(null, rows.filter(([, v]) => v !== null && v !== undefined && v !== ""), "pairs");
const words = (lines) => (lines || []).map((line) => el("p", {}, line));

const PANELS = {
  // a column a seat from il mano, a row a round of calls
  auction: (p, v) => el("table", {class: "grid auction"},
    el("thead", {}, el("tr", {}, ...p.order.map((s) => el("th", {"data-seat": s},
      fitted(breakable(v.names[s])))))),
    el("tbody", {}, ...p.rounds.map((r) => el("tr", {}, ...r.map((bid) =>
      el("td", {class: bid === "pass" ? "pass" : null}, bid ?? "")))))),
  contract: (p, v) => el("div", {}, pairs([["contract", p.contract], ["declarer", v.names[p.declarer]],
                                           ["called", p.called && chip(p.called)],
                                           ["given by", p.giver === null ? null : v.names[p.giver]]]),
                         ...words(p.lines.slice(1))),
  monte: (p) => pairs([["seen", chips(p.seen) || p.lines[0]], ["discarded", chips(p.discards)],
                       ["passed back", p.given_back && chip(p.given_back)], ["at the end", chips(p.final)]]),
  // a row a seat: four names fit a panel's height, not its width
  points: (p, v) => {
    const side = `${v.roles.some((r) => r.includes("mediator")) ? "mediator" : "declarer"}'s side`;
    return el("div", {}, grid(["", "points", "tricks"], v.names.map((name, s) => [name, p.points[s], p.tricks[s]])),
              p.side ? el("p", {}, `${side} ${p.side_points}, the others ${p.defenders_points}`
                                   + (p.needs ? ` (the ${side} needs ${p.needs})` : "")) : null);
  },
  scores: (p) => el("div", {}, grid(["", "total", "this hand", "cards"],
                                    p.sides.map((x) => [x.name, x.total, x.hand, x.cards]), "scores"),
                    el("p", {}, `to ${p.target}` + (p.low ? " · Low Hand: the lower total wins" : ""))),
  melds: (p, v) => grid(null, p.melds.map((m) => [v.names[m.seat], m.name, chips(m.cards), `${m.points}`])),
  // the last draws in sight, the earlier ones folded (a hand draws up to twenty)
  stock: (p, v) => {
    const row = (d) => [v.names[d.seat], d.card ? chip(d.card) : "a card"], cut = Math.max(0, p.draws.length - p.shown);
    return el("div", {}, el("p", {}, `${p.size} card${p.size === 1 ? "" : "s"} in the stock`),
      cut ? el("details", {}, el("summary", {}, `${cut} earlier draw${cut === 1 ? "" : "s"}`),
                 grid(null, p.draws.slice(0, cut).map(row), "draws")) : null,
      p.draws.length ? grid(null, p.draws.slice(cut).map(row), "draws") : null);
  },
  chips: (p, v) => el("div", {}, el("p", {class: "pot"}, `pot ${p.pot}`),
                      grid(["", "in the pot", "session"], v.names.map((name, s) => [name, p.stakes[s], signed(p.chips[s])]))),
  choosing: (p, v) => el("div", {}, pairs([
    ["calls", p.calls.map((c) => `${v.names[c.seat]} ${c.words}`).join(", ")],
    ["choosing", p.choosing === null ? null : v.names[p.choosing]],
    ["mediator", p.mediator === null ? null : `${v.names[p.mediator]}, to match ${p.to_match}`],
    ["called", p.called && chip(p.called)],
    ["partner", p.alone ? "none: alone" : p.partner === null ? (p.alone === false ? "secret" : null) : v.names[p.partner]]])),
  widow: (p) => pairs([["widow", chips(p.widow)], ["discards", chips(p.discards)]]),
};

// The deal's state in a line, from its panels, over the felt on a phone (where the panels lie
// below the hand): the contract and the called card, the points or the scores (and Low Hand,
// where the lower total wins: the game played is not the usual one), the pot.
function brief(view) {
  const p = Object.fromEntries(view.panels.map((x) => [x.kind, x]));
  const parts = [];
  if (p.auction && !p.contract) {  // the bid to beat, while the auction goes on
    const said = p.auction.rounds.flatMap((r) => r.map((bid, i) => [bid, p.auction.order[i]]));
    const top = said.filter(([bid]) => bid && bid !== "pass").at(-1);
    parts.push(view.over ? "all passed: thrown in"
      : top ? `auction: ${top[0]} by ${view.names[top[1]]}` : "auction: no bid yet");
  }
  if (p.contract) parts.push(`${p.contract.contract} by ${view.names[p.contract.declarer]}`
                             + (p.contract.called ? `, called ${p.contract.called.text}` : ""));
  if (p.points && p.points.side_points !== null && p.points.side_points !== undefined)
    parts.push(`points ${p.points.side_points} to ${p.points.defenders_points}`);
  if (p.scores) {  // each side named: "we 6 · they 5", or a player's name where a side is one
    const two = p.scores.sides.length === 2;
    parts.push(p.scores.sides.map((x) => `${x.seats.length === 1 ? view.names[x.seats[0]]
      : x.seats.includes(view.seat) ? "we" : two ? "they" : x.name} ${x.total}`).join(" · ")
      + ` (to ${p.scores.target}${p.scores.low ? ", Low Hand" : ""})`);
  }
  if (p.stock) parts.push(`stock ${p.stock.size}`);
  if (p.chips) parts.push(`pot ${p.chips.pot}`);
  return parts.join(" · ");
}

// A panel: its kind's drawing, or (a kind this page does not know) its words.
function drawPanel(p, view) {
  const draw = PANELS[p.kind];
  return el("section", {class: `panel fact ${p.kind}`, "data-fact": p.label, "data-kind": p.kind},
    el("h3", {}, p.label), ...(draw ? [draw(p, view)] : words(p.lines)));
}

// -- the news: in reading order, the newest at the bottom and in sight -------------------------
// The terminal's lines on the page. A line laid out in columns keeps them, monospaced: a table
// (two gaps of two spaces or more: the end's table of tricks) stays on one line, its block
// scrolling sideways; a label and its words ("Points    the mediator's side ...", "greedy(1)
// leads 3 of cups") or a line indented under one wraps, its words under its words (a hanging
// indent); prose wraps. A heading drops the rule the terminal pads it with ("== hand 1: the
// end ====="), which would only widen the box.
const unruled = (l) => l.replace(/ ([=-])\1{2,}$/, "");
function saidLines(lines) {
  const line = (l) => {
    const gaps = (l.trim().match(/\S {2,}(?=\S)/g) || []).length;
    const label = /^ *\S(?:\S| (?! ))* {2,}(?=\S)/.exec(l), indent = /^ {3,}(?=\S)/.exec(l);
    if (gaps >= 2) return el("div", {class: "columns"}, l);
    if (!label && !indent) return el("div", {}, l.trim() ? l : "\u00a0");
    const node = el("div", {class: "columns wraps"}, l);
    node.style.setProperty("--hang", `${(label || indent)[0].length}ch`);
    return node;
  };
  return lines.flatMap((l) => l.split("\n")).map(unruled).map(line);
}

// A hand's end as the server makes it (display.stop_json), the terminal's table as HTML, in
// the panels' letters however narrow the felt: each part words under its label, or a table
// (each row named by its first cell: a side, a trick's number; its foot the points each seat
// took) with the notes on its marks under it.
// Its tables' cells wrap between words (the CSS); one wider than its box so (a phone of 360
// pixels, long names) wraps its cells anywhere instead: no word is broken where the table fits
// without, and it always fits. First its columns are set apart (a phone's cells are narrow,
// the CSS): kept where the table fits so (a Tressette hand's six columns), dropped where it
// does not (a club deal's seven, at 390 pixels). Measured once drawn, a folded one once unfolded.
function fitEnd(root) {
  for (const t of root.querySelectorAll("table.grid.end")) {
    const wide = () => t.getBoundingClientRect().width > t.parentElement.clientWidth + 0.5;
    t.classList.remove("tight");
    t.classList.add("apart");
    if (wide()) t.classList.remove("apart");
    if (wide()) t.classList.add("tight");
  }
}
function endParts(end) {
  return end.parts.map((p) => el("section", {class: "end-part", "data-label": p.label},
    p.label ? el("h4", {}, p.label) : null,
    ...(p.columns.length ? [grid(p.columns.map(breakable), p.rows.map((r) => r.map(breakable)), "end", p.foot),
                            ...p.notes.map((n) => el("p", {class: "note"}, n))]
      : words(p.lines))));
}

function news(lines, kind) {
  if (!lines.length) return;
  const box = $("news");
  box.append(el("div", {class: `said ${kind || ""}`}, ...saidLines(lines)));
  while (box.children.length > 200) box.firstChild.remove();
  box.scrollTop = box.scrollHeight;
}

// What the table has told this person, kept to show again when they come back from another tab.
function tell(lines, kind) {
  play.told.push([lines, kind]);
  if (play.told.length > 200) play.told.shift();
  if (mode_ === "play") news(lines, kind);
}

// -- play: the events one by one, then the table the person moves at ----------------------
// This tab's seat (the table's id, the seat and its token) stays in sessionStorage, so a
// reload goes on at the same seat; every seat taken in this browser is also kept by table and
// seat in localStorage, so opening a seat's link again gives the seat back.
const SAVED = "mediatore-web-table", SEATS = "mediatore-web-seats";
function remember() {
  const mine = {id: play.id, seat: play.seat, token: play.token};
  sessionStorage.setItem(SAVED, JSON.stringify(mine));
  const seats = JSON.parse(localStorage.getItem(SEATS) || "{}");
  seats[`${play.id}.${play.seat}`] = play.token;
  localStorage.setItem(SEATS, JSON.stringify(seats));
}

function seated(state) {
  play = {id: state.id, seat: state.seat, token: state.token, since: 0, version: state.version,
          state, lastShown: false, told: [], chosen: [], pending: [], sending: false};
  remember();
  queue = [];
  clearTimeout(pause);
  pause = drawn = null;
  $("news").replaceChildren();
  $("open-hands").replaceChildren();
  $("setup").open = false;  // the form folds away once seated
  $("join-box").hidden = true;
  receive(state);
  follow();
}

// Any state from the server (a move's answer, a long poll, the socket): its events not yet
// seen, in order, once each.
function receive(state) {
  if (!play || state.id !== play.id || state.next < play.since) return;
  const first = state.next - state.events.length;
  const fresh = state.events.filter((_, i) => first + i >= play.since);
  Object.assign(play, {since: state.next, version: state.version, state});
  invite(state);
  queue.push(...fresh);
  // the agents done while the last event's pause runs: nothing more to pace, the table is
  // the person's now
  if (pause !== null && !queue.length && !state.thinking) {
    clearTimeout(pause);
    drain();
  } else if (!busy) drain();
}

function drain() {
  pause = null;
  busy = queue.length > 0;
  document.body.dataset.busy = busy ? "1" : "";
  if (!busy) {
    const seat = drawn;
    drawn = null;
    if (!play.state.thinking) settle(seat);
    return;
  }
  const event = queue.shift();
  if (event.kind === "deal" && event.view && play.shownEpisode !== play.state.episode) {
    play.shownEpisode = play.state.episode;
    tell([`— ${play.state.title}, ${play.state.unit} ${play.state.episode} —`], "heading");
  }
  tell(event.lines, event.kind);
  if (event.kind === "end") play.lastEnd = event.end || null;  // drawn under the summary
  drawn = event.kind === "move" ? event.seat : null;
  if (mode_ === "play") {
    render(event.view, {seats: play.state.seats, arriving: drawn});
    score(play.state, event.view);
  }
  // A hand of the episode is over (a Tressette hand, a club deal): its end stays on the table
  // until the person asks for the next, as the terminal waits for Enter. The server has dealt
  // it already; the events after this one wait in the queue. Not where the person has moved
  // in a later hand already (a page opened again, its news told anew).
  const later = queue.some((e) => e.kind === "move" && e.seat === play.state.seat);
  if (event.kind === "stop" && mode_ === "play" && !later) {
    // on the felt, where the eye is and the table of points has room: the end as data, drawn
    // (a server without it: the terminal's heading, "== hand 1: the end", as its title, the
    // rest as the terminal shows it)
    document.body.dataset.ready = "between";
    banner(`The ${event.word} is over`);
    const said = event.lines.flatMap((l) => l.split("\n")), board = $("between");
    const [head, ...rest] = said.slice(said.findIndex((l) => l.trim()));
    board.replaceChildren(el("h3", {}, event.end ? event.end.title : unruled(head).replace(/^=+ /, "")),
      event.end ? el("div", {class: "lines end"}, ...endParts(event.end)) : el("div", {class: "lines"}, ...saidLines(rest)),
      el("button", {id: "next-hand", class: "move", on: () => {
        board.hidden = true;
        board.replaceChildren();
        document.body.dataset.ready = "";
        drain();
      }}, `Next ${event.word}`));
    board.hidden = false;
    fitEnd(board);
    // the terminal's lines (a server that sends no end as data) as wide as the board: their
    // letters smaller where they are wider (a club deal's tricks on a phone), down to 9 px;
    // past that they scroll sideways
    const lines = board.querySelector(".lines");
    if (!event.end && lines.scrollWidth > lines.clientWidth) {
      const size = parseFloat(getComputedStyle(lines).fontSize);
      lines.style.fontSize = `${Math.max(9, Math.floor(size * lines.clientWidth / lines.scrollWidth * 10) / 10)}px`;
    }
    board.scrollIntoView({block: "nearest"});  // a phone scrolled down to its hand sees it whole
    refocus($("next-hand"));
    return;
  }
  // a card that ends a trick: the trick stays twice as long, for its winner to be seen
  const ended = event.kind === "move" && event.view && !event.view.trick.length && event.view.last_trick
    && event.view.last_trick.cards.at(-1).seat === event.seat;
  // The pause paces the next event only: after the last, the table is the person's at once
  // (a quick click is taken), while its card still travels and a finished trick rests (CSS).
  if (!queue.length && !play.state.thinking) drain();
  else pause = setTimeout(drain, event.kind === "move" || event.kind === "join" ? (ended ? 2 * PACE : PACE) : 0);
}

// The table the person moves at; ``arriving``: the seat whose card the last event shown played,
// drawn on its way still.
function settle(arriving = null) {
  if (mode_ !== "play") return;
  const s = play.state, view = s.view;
  // the next of the cards picked together, while it is still among the moves offered; and
  // while a move is on its way, the page is not yet the seat's to play from
  const next = play.sending ? undefined : play.pending.shift();
  const sending = next !== undefined && !s.broken && view.moves.some((m) => m.move === next);
  if (next !== undefined && !sending) play.pending = [];
  // a state that changes only who is here (a page opened or closed) redraws the seats alone:
  // the hand a person is choosing from stays as it is under their pointer
  const key = `${s.next}.${s.version}.${s.thinking}.${s.broken}.${play.lastShown}`;
  document.body.dataset.ready = play.sending || sending ? "" : s.broken ? "broken" : view.over ? "over"
    : view.moves.length ? "turn" : "wait";
  if (key === play.settled && !$("table").hidden) {
    drawSeats(view, {seats: s.seats, interactive: !s.broken});
    if (sending) sendMove(next);
    return;
  }
  play.settled = key;
  const other = view.to_move !== null && view.to_move !== s.seat ? s.seats[view.to_move] : null;
  const waiting = s.broken ? "" : other && other.kind === "person"
    ? (other.taken ? `Waiting for ${other.name}` : `Waiting for someone to take seat ${other.seat}`) : "";
  render(view, {interactive: !s.broken, seats: s.seats, lastShown: play.lastShown, waiting, arriving});
  score(s, view);
  if (s.broken) shout(new Error(s.broken));
  if (sending) sendMove(next);
}

// The score beside the table: each seat's result this episode once over, and the running total.
function score(s, view) {
  // the results so far only once there are some: before, a column of zeros beside the game's
  // own scores (a Tressette game's, to 31) would only be taken for them
  const over = view.over, results = over || s.episode > 1;
  $("score").replaceChildren(
    el("div", {class: "caption"}, `${s.title}, ${s.unit} ${s.episode}` + (results ? " · running score" : "")),
    ...(results ? [el("table", {class: "grid"},
      el("thead", {}, el("tr", {}, el("th", {}, ""), over ? el("th", {}, `this ${s.unit}`) : null,
                        el("th", {}, `${s.unit}s so far`))),  // not "total": a game's own scores have one
      el("tbody", {}, ...view.names.map((name, i) => el("tr", {class: i === s.seat ? "mine" : ""},
        el("th", {}, fitted(name)), over ? el("td", {}, signed(view.outcome[i])) : null, el("td", {}, signed(s.totals[i])))))),
    ] : []));
  const summary = $("summary"), shown = !summary.hidden;
  summary.hidden = !over || Boolean(play && play.lastShown);  // the last trick asked for shows
  if (!over) summary.replaceChildren();
  if (over) {
    // the game's summary: what it says of the end, a row per seat (tricks, points, payment...),
    // the best marked
    const sum = view.summary, last = sum.columns.length - 1;
    // its title and Next in sight whatever its height, its body between them (the CSS)
    summary.replaceChildren(el("h3", {}, `The ${s.unit} is over`), el("div", {class: "body"}, ...words(sum.lines),
      el("table", {class: "grid summary"},
        el("thead", {}, el("tr", {}, el("th", {}, ""), ...sum.columns.map((c) => el("th", {}, c)))),
        el("tbody", {}, ...view.names.map((name, i) => el("tr", {class: sum.best.includes(i) ? "best" : "", "data-seat": i},
          el("th", {}, fitted(name)), ...sum.rows[i].map((x, k) => el("td", {}, k === last ? signed(x) : String(x))))))),
      // the last hand's table (a Tressette game's, club's last deal's), as every hand's
      // before it was drawn between two hands: folded, so that Next stays in sight
      ...(play && play.lastEnd ? [lastEnd(play.lastEnd)] : [])),
      // where the eye is, under the end it follows (as Next hand is between two hands)
      ...(s.broken ? [] : [el("button", {id: "next", class: "move", on: nextEpisode}, `Next ${s.unit}`)]));
    if (!shown && !summary.hidden) summary.scrollIntoView({block: "nearest"});  // a phone scrolled to its hand
    if (!summary.hidden) refocus($("next"));
  }
}

// The last hand's end under the summary, folded; its tables fitted once unfolded.
function lastEnd(end) {
  const folded = el("details", {class: "lines end"}, el("summary", {}, end.title), ...endParts(end));
  folded.ontoggle = () => { if (folded.open) fitEnd(folded); };
  return folded;
}

// The links of the seats still free, for the creator to send (a code works once).
function invite(state) {
  const free = (state.join || []).map((code, seat) => code && {seat, code}).filter(Boolean);
  $("invite").hidden = !free.length || mode_ !== "play";
  $("links").replaceChildren(...free.map(({seat, code}) => {
    const link = `${location.origin}/#join=${state.id}.${seat}.${code}`;
    return el("li", {}, `seat ${seat}: `, el("a", {href: link, "data-seat": seat}, link), " ",
      el("button", {on: (e) => navigator.clipboard?.writeText(link).then(() => { e.target.textContent = "Copied"; })}, "Copy"));
  }));
}

async function sendMove(move) {
  if (busy || play.state.thinking || play.sending) return;  // one move on its way at a time
  document.body.dataset.ready = "";
  play.sending = true;
  let answer;
  try {
    answer = await api("POST", `/api/games/${play.id}/move`, {move, version: play.version, since: play.since});
  } catch (e) {
    Object.assign(play, {sending: false, pending: []});
    shout(e);
    settle();
    return;
  }
  play.sending = false;
  receive(answer);
  // the socket may have brought this state (and more) first, and the table then drawn was not
  // yet the seat's to play from, its move on its way: it is now
  if (!busy && !play.state.thinking) settle();
}

async function nextEpisode() {
  try {
    receive(await api("POST", `/api/games/${play.id}/next`, {version: play.version, since: play.since}));
  } catch (e) { shout(e); }
}

// The push channel: a WebSocket sends every change of the table; while it is down (a dropped
// connection, a proxy that refuses it), the page asks with long polls and tries it again.
let conn = null;  // this tab's channel: {id, socket, pushed, polling, retry}
function follow() {
  if (!play) return;
  if (!conn || conn.id !== play.id) {
    const old = conn;
    conn = {id: play.id, socket: null, pushed: false, polling: false, retry: 500};
    old?.socket?.close();
  }
  const c = conn;
  if (c.socket) return;
  let socket;
  try {
    socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${c.id}/socket`);
  } catch (e) { poll(c); return; }
  c.socket = socket;
  socket.onopen = () => {
    socket.send(JSON.stringify({token: play.token, since: play.since}));
    c.pushed = true;
    c.retry = 500;
  };
  socket.onmessage = (m) => {
    const state = JSON.parse(m.data);
    if (state.error) { if (state.status === 404) forget(); else shout(new Error(state.error)); return; }
    receive(state);
  };
  socket.onclose = () => {
    c.socket = null;
    c.pushed = false;
    if (conn !== c) return;  // another table since
    poll(c);
    c.retry = Math.min(c.retry * 2, 10000);
    setTimeout(() => { if (conn === c && !c.socket) follow(); }, c.retry);
  };
}

async function poll(c) {
  if (c.polling) return;
  c.polling = true;
  try {
    while (conn === c && !c.pushed && play && play.id === c.id) {
      const state = await api("GET", `/api/games/${play.id}?since=${play.since}&wait=25`);
      receive(state);
      if (!state.events.length) await sleep(1000);
    }
  } catch (e) { if (e.status === 404) forget(); else shout(e); }
  finally { c.polling = false; }
}

function forget() {
  sessionStorage.removeItem(SAVED);
  const old = conn;
  conn = null;
  old?.socket?.close();
  play = null;
  $("table").hidden = true;
  $("setup").open = true;
  shout(new Error("the table is gone (finished idle and let go): start another"));
}

// -- the set-up form --------------------------------------------------------------------------
// Each rules switch gets the input its kind asks for (the server says which).
function switchInput(sw) {
  const attrs = {class: "rule", "data-rule": sw.name, "data-kind": sw.kind};
  if (sw.kind === "bool") return el("input", {...attrs, type: "checkbox", checked: sw.default});
  if (sw.kind === "choice") {
    const select = el("select", attrs, ...sw.choices.map((c) => el("option", {value: JSON.stringify(c)}, String(c))));
    select.value = JSON.stringify(sw.default);
    return select;
  }
  if (sw.kind === "int" || sw.kind === "optional int")
    return el("input", {...attrs, type: "number", step: 1, min: 1, size: 6,
                        ...(sw.default === null ? {placeholder: "none"} : {value: sw.default})});
  return el("input", {...attrs, size: 8, value: sw.default ?? ""});
}

function switchValue(input) {
  const kind = input.dataset.kind;
  if (kind === "bool") return input.checked;
  if (kind === "choice") return JSON.parse(input.value);
  if (kind === "int" || kind === "optional int")
    return input.value === "" ? (kind === "int" ? undefined : null) : Number(input.value);
  return input.value;
}

const PERSON = "";  // the value of "a person" in a seat's list
function fillForm() {
  const g = games.find((x) => x.name === $("game").value);
  $("seat").replaceChildren(...[...Array(g.players).keys()].map((s) => el("option", {value: s}, `seat ${s}`)));
  $("agents").replaceChildren(...[...Array(g.players).keys()].map((s) => el("label", {"data-seat": s},
    `seat ${s} `, el("select", {class: "agent", "data-seat": s},
      el("option", {value: PERSON}, "a person (link)"), ...g.agents.map((a) => el("option", {value: a}, a))))));
  for (const sel of document.querySelectorAll(".agent")) {
    sel.value = g.agents.includes("greedy") ? "greedy" : g.agents[0];
    sel.onchange = seatChosen;
  }
  $("stand-in-agent").replaceChildren(...g.agents.map((a) => el("option", {value: a}, a)));
  $("stand-in-agent").value = g.agents.includes("greedy") ? "greedy" : g.agents[0];
  // a switch's name in words; a checkbox before its words, as a form's checkboxes are
  $("rules").replaceChildren(...g.switches.map((sw) => {
    const words = sw.name.replaceAll("_", " "), input = switchInput(sw);
    return el("label", {class: "switch", title: sw.name},
      ...(sw.kind === "bool" ? [input, ` ${words}`] : [`${words} `, input]));
  }));
  seatChosen();
}

// Your own seat has no agent to choose. A seed deals cards whoever chose it could work out, so
// a table with other people has none: the server deals (and refuses one).
function seatChosen() {
  for (const label of $("agents").children) label.hidden = label.dataset.seat === $("seat").value;
  const others = [...document.querySelectorAll(".agent")].some((s) =>
    s.dataset.seat !== $("seat").value && s.value === PERSON);
  $("seed").disabled = others;
  $("seed").title = others ? "a table with other people is dealt by the server" : "";
}

async function start() {
  const rules = {};
  for (const input of document.querySelectorAll(".rule")) {
    const value = switchValue(input);
    if (value !== undefined) rules[input.dataset.rule] = value;
  }
  const seat = Number($("seat").value);
  const body = {game: $("game").value, seat, rules,
                agents: [...document.querySelectorAll(".agent")].map((s, i) =>
                  i === seat || s.value === PERSON ? null : s.value)};
  if ($("name").value.trim()) body.name = $("name").value.trim();
  if ($("cards").value !== "english") body.cards = $("cards").value;
  if ($("seed").value !== "" && !$("seed").disabled) body.seed = Number($("seed").value);
  if ($("stand-in").checked)
    body.stand_in = {agent: $("stand-in-agent").value, after: Number($("stand-in-after").value)};
  try {
    play = null;
    seated(await api("POST", "/api/games", body));
  } catch (e) { shout(e); }
}

// -- a seat's link: #join=<table>.<seat>.<code> -------------------------------------------------
function joinLink() {
  const m = /^#join=([\w-]+)\.(\d+)\.([\w-]+)$/.exec(location.hash);
  return m && {id: m[1], seat: Number(m[2]), code: m[3]};
}

async function offerJoin(link) {
  const known = JSON.parse(localStorage.getItem(SEATS) || "{}")[`${link.id}.${link.seat}`];
  if (known && await resumeAt({id: link.id, seat: link.seat, token: known})) {
    history.replaceState(null, "", "/");
    return;
  }
  $("join-box").hidden = false;
  $("setup").open = false;
  $("join-what").textContent = `You are invited to seat ${link.seat} of a table.`;
  try {  // what the link invites to: the game, who opened it, who sits where
    const t = await api("POST", `/api/games/${link.id}/invitation`, {seat: link.seat, code: link.code});
    $("join-what").textContent = `${t.host} invites you to seat ${link.seat} of ${t.title} (rules: ${t.rules}), with `
      + t.seats.filter((x) => x.seat !== link.seat).map((x) => x.name).join(", ") + ".";
  } catch (e) {
    $("join-what").textContent = e.status === 409 ? "This seat is taken: its link worked once."
      : e.status === 404 ? "This table is gone (let go when idle, or the server restarted)." : e.message;
    $("join").disabled = true;
    return;
  }
  $("join").onclick = async () => {
    try {
      const state = await api("POST", `/api/games/${link.id}/join`,
                              {seat: link.seat, code: link.code, name: $("join-name").value.trim() || null});
      history.replaceState(null, "", "/");  // the code worked once: out of the address bar
      seated(state);
    } catch (e) { shout(e); }
  };
}

// A reload: the seat kept in this tab, if the server still has its table.
async function resumeAt(saved) {
  play = {...saved, since: 0, told: [], chosen: [], pending: [], sending: false};
  try {
    const state = await api("GET", `/api/games/${saved.id}?since=0`);
    for (const event of state.events) tell(event.lines, event.kind);  // at once, not played again
    Object.assign(play, {since: state.next, version: state.version, state, shownEpisode: state.episode,
                         lastShown: false});
    remember();
    $("setup").open = false;
    invite(state);
    settle();
    follow();
    return true;
  } catch (e) {
    play = null;
    if (e.status !== 404 && e.status !== 403) shout(e);
    return false;
  }
}

async function resume() {
  const saved = JSON.parse(sessionStorage.getItem(SAVED) || "null");
  if (saved && !(await resumeAt(saved))) sessionStorage.removeItem(SAVED);
}

// -- watch: a record, step by step ------------------------------------------------------------
async function loadRecords(select) {
  const {records} = await api("GET", "/api/records");
  $("record").replaceChildren(...records.map((r) => el("option", {value: r.id},
    r.label.includes(r.names[0]) ? r.label : `${r.label} · ${r.names.join(", ")}`)));
  if (select) $("record").value = select;
  watch = {records};
  if (records.length) chooseRecord();
}

function chooseRecord() {
  const r = watch.records.find((x) => x.id === $("record").value);
  watch = {...watch, record: r, step: 0, wanted: 0, view: null};
  $("watch-seat").replaceChildren(el("option", {value: "open"}, "all hands open"),
    ...r.names.map((name, s) => el("option", {value: s}, `${name} (seat ${s})`)));
  showStep(0);
}

async function showStep(step) {
  const r = watch.record;
  step = Math.max(0, Math.min(step, r.steps));
  // Clicks faster than the server answers: each counts from the step last asked for, and only
  // the last asked for is drawn, so an earlier answer arriving late cannot draw over it.
  watch.wanted = step;
  const asked = watch.asked = (watch.asked || 0) + 1;
  try {
    const data = await api("GET", `/api/records/${r.id}?step=${step}&seat=${$("watch-seat").value}`);
    if (asked !== watch.asked || r !== watch.record) return;
    const forward = step === watch.step + 1, before = watch.view;
    if (step !== watch.step) watch.lastShown = false;  // the last trick asked for at its step
    watch.step = step;
    const open = data.seat === null;
    const view = watch.view = data.views[0];
    const mover = forward && data.lines.length ? moverOf(view, before) : null;
    render(open ? {...view, seat: 0} : view, {open: open ? data.views : null, arriving: mover,
                                              lastShown: watch.lastShown});
    $("news").replaceChildren();
    news(data.lines.length ? data.lines : ["(the start: nothing dealt yet)"]);
    $("step").textContent = `step ${step} of ${data.steps}`;
    const outcome = view.outcome;
    $("score").replaceChildren(el("div", {id: "watch-result", class: "caption"},
      outcome ? `result: ${outcome.map((x, i) => `${view.names[i]} ${signed(x)}`).join(" · ")}`
              : `recorded result: ${data.recorded_outcome.map((x, i) => `${view.names[i]} ${signed(x)}`).join(" · ")}`));
    if (outcome) $("watch-result").dataset.outcome = JSON.stringify(outcome);
    $("summary").hidden = true;
    document.body.dataset.ready = `step-${step}`;
  } catch (e) { shout(e); }
}

// Watching on its own: a step every pace (at least 0.3 s) to the last, or until stopped.
let stepper = null;
function autoplay(on) {
  clearInterval(stepper);
  stepper = null;
  $("autoplay").textContent = on ? "\u275a\u275a" : "\u25b6";
  const words = on ? "pause" : "play the steps one by one";  // its name says what it does now
  $("autoplay").title = words;
  $("autoplay").setAttribute("aria-label", words);
  if (on) stepper = setInterval(() => {
    if (mode_ !== "watch" || !watch.record || watch.wanted >= watch.record.steps) autoplay(false);
    else showStep(watch.wanted + 1);
  }, Math.max(PACE, 300));
}

// The seat whose card has just reached the trick, to show it travelling there.
// The seat whose card a step forward played: the trick's last, or, where that card finished the
// trick (the table empty, the step before one card short), the last trick's last, so that a
// trick's last card is seen on the felt, resting then going to its winner, as at a table.
function moverOf(view, before) {
  if (view.trick.length) return view.trick[view.trick.length - 1].seat;
  const last = view.last_trick;
  if (last && before && before.trick.length === last.cards.length - 1) return last.cards.at(-1).seat;
  return null;
}

async function uploadRecord(file) {
  try {
    const {records} = await api("POST", "/api/records", JSON.parse(await file.text()));
    await loadRecords(records[0].id);
  } catch (e) { shout(e); }
}

// -- history: the games played here, and how each name does --------------------------------
let historyAsked = 0;  // the last filter asked for: an earlier answer arriving late is dropped
async function showHistory() {
  const game = $("history-game").value, name = $("history-name").value.trim();
  const query = new URLSearchParams({...(game ? {game} : {}), ...(name ? {name} : {})});
  const asked = ++historyAsked;
  try {
    const [{kept, episodes}, results] = await Promise.all([api("GET", `/api/history?${query}`),
                                                           api("GET", `/api/results?${query}`)]);
    if (asked !== historyAsked) return;
    $("history-note").textContent = !kept ? "This server keeps no history (--no-history)."
      : episodes.length ? "" : "Nothing finished here yet" + (game || name ? " with these filters." : ".");
    $("history-table").replaceChildren(...(episodes.length ? [
      el("thead", {}, el("tr", {}, ...["when", "game", "at the table", "result", ""].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...episodes.map((e) => el("tr", {"data-hid": e.id},
        el("td", {}, e.finished.slice(0, 16).replace("T", " ")), el("td", {}, e.title),
        el("td", {}, ...e.names.flatMap((n, s) => [s ? ", " : "", e.persons.includes(s) ? el("b", {}, n) : n])),
        el("td", {}, e.outcome.map(signed).join(" ")),
        el("td", {}, el("button", {class: "watch", "data-hid": e.id, on: () => watchEpisode(e.id)}, "Watch")))))] : []));
    const row = (r, first) => el("tr", {}, el("th", {}, first), el("td", {}, r.game), el("td", {}, r.games),
      el("td", {}, signed(r.mean)), el("td", {}, r.low === null ? "–" : `${signed(r.low)} to ${signed(r.high)}`));
    const head = (first) => el("thead", {}, el("tr", {}, ...[first, "game", "played", "mean", "95% interval"].map((h) => el("th", {}, h))));
    $("results").replaceChildren(...(results.results.length ? [head("name"),
      el("tbody", {}, ...results.results.map((r) => row(r, r.person ? r.name : `${r.name} (agent)`)))] : []));
    $("against").replaceChildren(...(results.against?.length ? [head(`${name}, at the table with`),
      el("tbody", {}, ...results.against.map((r) => row(r, r.other)))] : []));
    document.body.dataset.ready = `history-${episodes.length}`;
  } catch (e) { shout(e); }
}

async function watchEpisode(hid) {
  try {
    const info = await api("POST", `/api/history/${hid}/watch`, {});
    mode("watch", info.id);
  } catch (e) { shout(e); }
}

function mode(name, record) {
  mode_ = name;
  for (const tab of ["play", "watch", "history"]) $(`tab-${tab}`).classList.toggle("on", name === tab);
  $("setup").hidden = name !== "play";
  $("invite").hidden = true;
  $("watch-form").hidden = name !== "watch";
  $("history-view").hidden = name !== "history";
  $("table").hidden = true;
  $("open-hands").replaceChildren();
  $("news").replaceChildren();
  if (name === "watch") loadRecords(record).catch(shout);
  if (name === "history") showHistory();
  if (name === "play" && play && play.state) {
    invite(play.state);
    for (const [lines, kind] of play.told) news(lines, kind);
    play.settled = null;
    settle();
  }
}

async function main() {
  ({games} = await api("GET", "/api/games"));
  $("game").replaceChildren(...games.map((g) => el("option", {value: g.name}, g.title)));
  $("history-game").append(...games.map((g) => el("option", {value: g.name}, g.title)));
  $("game").onchange = fillForm;
  $("seat").onchange = seatChosen;
  fillForm();
  $("start").onclick = start;
  $("tab-play").onclick = () => mode("play");
  $("tab-watch").onclick = () => mode("watch");
  $("tab-history").onclick = () => mode("history");
  $("history-filter").onsubmit = (e) => { e.preventDefault(); showHistory(); };
  $("record").onchange = chooseRecord;
  $("watch-seat").onchange = () => showStep(watch.step);
  $("record-file").onchange = (e) => e.target.files[0] && uploadRecord(e.target.files[0]);
  $("first").onclick = () => showStep(0);
  $("back").onclick = () => showStep(watch.wanted - 1);
  $("forward").onclick = () => showStep(watch.wanted + 1);
  $("last").onclick = () => showStep(watch.record.steps);
  $("autoplay").onclick = () => autoplay(!stepper);
  // the last trick of what is in front: the step watched, or the table played
  $("show-last").onclick = () => {
    if (mode_ === "watch") {
      if (watch && watch.record) { watch.lastShown = !watch.lastShown; showStep(watch.step); }
    } else if (play) { play.lastShown = !play.lastShown; settle(); }
  };
  const link = joinLink();
  if (link) await offerJoin(link); else await resume();
  document.body.dataset.loaded = "1";
}
main().catch(shout);
