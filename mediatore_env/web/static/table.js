// The table in the browser: draws what the server sends (a seat's view_json) and sends the
// person's clicks back. It never decides what is legal: only the moves the server lists are
// buttons. No build step, no library.
"use strict";
const $ = (id) => document.getElementById(id);
const PACE = Number(new URLSearchParams(location.search).get("pace") ?? 700);
let games = [], play = null, watch = null, queue = [], busy = false;

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

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "on") node.onclick = v;
    else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// A card face: rank and suit in words, as the terminal names them, and the short tag.
function card(c, move) {
  const tag = move === undefined ? "span" : "button";
  const node = el(tag, {class: `card suit-${c.suit_index}` + (move === undefined ? "" : " legal"),
                        title: c.text, "data-card": c.tag},
                  el("span", {class: "rank"}, c.rank), el("span", {class: "suit"}, c.suit),
                  el("span", {class: "tag"}, c.tag));
  return node;
}

function moveButton(m) {
  return el("button", {class: "move", "data-move": m.move, on: () => sendMove(m.move)}, m.words);
}

function render(view, interactive, openViews) {
  $("table").hidden = false;
  const names = view.names;
  $("seats").replaceChildren(...names.map((name, s) => el("div",
    {class: "seat" + (view.to_move === s ? " to-move" : ""), "data-seat": s},
    `${name}: ${view.hand_sizes[s]} cards`)));
  $("trick").replaceChildren(...view.trick.map((p) => el("span", {class: "played"},
    card(p.card), names[p.seat])));
  const last = view.last_trick;
  $("last-trick").replaceChildren(...(last && !view.trick.length ? [
    el("div", {}, `last trick, won by ${names[last.winner]}:`),
    el("div", {class: "cards"}, ...last.cards.map((p) => el("span", {class: "played"},
      card(p.card), names[p.seat])))] : []));
  $("facts").replaceChildren(...view.facts.map(([label, lines]) => el("div", {class: "fact"},
    el("b", {}, label), el("pre", {}, lines.join("\n")))));
  const moves = interactive ? view.moves : [];
  const byCard = {};
  for (const m of moves) if (m.card) (byCard[m.card] ??= []).push(m);
  $("hand").replaceChildren(...view.hand.map((c) => {
    const mine = byCard[c.tag];
    if (!mine) return card(c);
    const node = card(c, mine[0].move);
    if (mine.length === 1) { node.setAttribute("data-move", mine[0].move);
                             node.onclick = () => sendMove(mine[0].move); }
    else node.onclick = () => $("moves").replaceChildren(
      el("span", {}, `${c.text}: `), ...mine.map(moveButton));
    return node;
  }));
  $("moves").replaceChildren(...moves.filter((m) => !m.card).map(moveButton));
  $("open-hands").replaceChildren(...(openViews || []).map((v) => el("div", {class: "open"},
    el("b", {}, v.names[v.seat]), el("div", {class: "cards"}, ...v.hand.map((c) => card(c))))));
}

function news(lines) {
  if (!lines.length) return;
  const box = $("news");
  box.prepend(el("pre", {}, lines.join("\n")));
  while (box.children.length > 30) box.lastChild.remove();
}

// -- play: the events one by one, then the table the person moves at ----------------------
// The table's id and the seat's token stay in sessionStorage, so a reload goes on playing.
const SAVED = "mediatore-web-table";

function showPlay(state) {
  play = {...play, id: state.id ?? play.id, version: state.version, since: state.next, state};
  if (state.token) {
    play.token = state.token;
    sessionStorage.setItem(SAVED, JSON.stringify({id: play.id, token: play.token}));
  }
  queue.push(...state.events);
  if (!busy) drain();
  if (state.thinking) waitForAgents();
}

// The agents think on the server: ask for their moves as they come (the server holds the
// request until there is news, at most a few seconds).
async function waitForAgents() {
  if (play.waiting) return;
  play.waiting = true;
  try {
    let state = play.state;
    while (state.thinking) {
      state = await api("GET", `/api/games/${play.id}?since=${play.since}&wait=5`);
      play = {...play, version: state.version, since: state.next, state};
      queue.push(...state.events);
      if (!busy) drain();
    }
  } catch (e) { shout(e); }
  finally { play.waiting = false; }
  if (!busy) drain();
}

function drain() {
  busy = queue.length > 0;
  document.body.dataset.busy = busy ? "1" : "";
  if (!busy) { if (!play.state.thinking) settle(); return; }
  const event = queue.shift();
  news(event.lines);
  render(event.view, false);
  setTimeout(drain, event.kind === "move" ? PACE : 0);
}

function settle() {
  const s = play.state, view = s.view;
  render(view, !s.broken);
  const totals = s.totals.map((t, i) => `${view.names[i]} ${t >= 0 ? "+" : ""}${t}`).join(" · ");
  $("score").replaceChildren(el("div", {}, `${s.title}, ${s.unit} ${s.episode} · running score: ${totals}`),
    ...(view.over ? [el("button", {id: "next", on: nextEpisode}, `Next ${s.unit}`)] : []));
  if (s.broken) shout(new Error(s.broken));
  document.body.dataset.ready = s.broken ? "broken" : view.over ? "over" : "turn";
}

async function sendMove(move) {
  if (busy || play.state.thinking) return;
  document.body.dataset.ready = "";
  try {
    showPlay(await api("POST", `/api/games/${play.id}/move`,
                       {move, version: play.version, since: play.since}));
  } catch (e) { shout(e); settle(); }
}

async function nextEpisode() {
  $("news").replaceChildren();
  try {
    showPlay(await api("POST", `/api/games/${play.id}/next`,
                       {version: play.version, since: play.since}));
  } catch (e) { shout(e); }
}

// Each rules switch gets the input its kind asks for (the server says which).
function switchInput(sw) {
  const attrs = {class: "rule", "data-rule": sw.name, "data-kind": sw.kind};
  if (sw.kind === "bool") return el("input", {...attrs, type: "checkbox", ...(sw.default ? {checked: ""} : {})});
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

function fillForm() {
  const g = games.find((x) => x.name === $("game").value);
  $("seat").replaceChildren(...[...Array(g.players).keys()].map((s) => el("option", {value: s}, `seat ${s}`)));
  $("agents").replaceChildren(...[...Array(g.players).keys()].map((s) => el("label", {"data-seat": s},
    `seat ${s} `, el("select", {class: "agent", "data-seat": s},
      ...g.agents.map((a) => el("option", {value: a}, a))))));
  for (const sel of document.querySelectorAll(".agent")) sel.value = g.agents.includes("greedy") ? "greedy" : g.agents[0];
  $("rules").replaceChildren(...g.switches.map((sw) => el("label", {}, `${sw.name} `, switchInput(sw))));
  seatChosen();
}

// Your own seat has no agent to choose.
function seatChosen() {
  for (const label of $("agents").children) label.hidden = label.dataset.seat === $("seat").value;
}

async function start() {
  const rules = {};
  for (const input of document.querySelectorAll(".rule")) {
    const value = switchValue(input);
    if (value !== undefined) rules[input.dataset.rule] = value;
  }
  const seat = Number($("seat").value);
  const body = {game: $("game").value, seat, rules,
                agents: [...document.querySelectorAll(".agent")].map((s, i) => i === seat ? null : s.value)};
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  queue = []; $("news").replaceChildren(); $("open-hands").replaceChildren();
  play = {};
  try { showPlay(await api("POST", "/api/games", body)); } catch (e) { shout(e); }
}

// A reload: the table saved in this tab, if the server still has it.
async function resume() {
  const saved = JSON.parse(sessionStorage.getItem(SAVED) || "null");
  if (!saved) return;
  play = {...saved};
  try {
    const state = await api("GET", `/api/games/${saved.id}?since=0`);
    for (const event of state.events) news(event.lines);  // told at once, not played again
    showPlay({...state, events: []});
  } catch (e) {
    play = null;
    sessionStorage.removeItem(SAVED);
    if (e.status !== 404) shout(e);
  }
}

// -- watch: a record, step by step ------------------------------------------------------------
async function loadRecords(select) {
  const {records} = await api("GET", "/api/records");
  $("record").replaceChildren(...records.map((r) => el("option", {value: r.id},
    `${r.label} (${r.title})`)));
  if (select) $("record").value = select;
  watch = {records};
  if (records.length) chooseRecord();
}

function chooseRecord() {
  const r = watch.records.find((x) => x.id === $("record").value);
  watch = {...watch, record: r, step: 0};
  $("watch-seat").replaceChildren(el("option", {value: "open"}, "all hands open"),
    ...[...Array(r.players).keys()].map((s) => el("option", {value: s}, `seat ${s}`)));
  showStep(0);
}

async function showStep(step) {
  const r = watch.record;
  step = Math.max(0, Math.min(step, r.steps));
  try {
    const data = await api("GET", `/api/records/${r.id}?step=${step}&seat=${$("watch-seat").value}`);
    watch.step = step;
    const open = data.seat === null;
    render(data.views[0], false, open ? data.views : null);
    $("news").replaceChildren(el("pre", {}, data.lines.join("\n")));
    $("step").textContent = `step ${step} of ${data.steps}`;
    const outcome = data.views[0].outcome;
    $("score").replaceChildren(el("div", {id: "watch-result"},
      outcome ? `result: ${outcome.map((x, i) => `${data.views[0].names[i]} ${x >= 0 ? "+" : ""}${x}`).join(" · ")}`
              : `recorded result: ${data.recorded_outcome.join(", ")}`));
    if (outcome) $("watch-result").dataset.outcome = JSON.stringify(outcome);
    document.body.dataset.ready = `step-${step}`;
  } catch (e) { shout(e); }
}

async function uploadRecord(file) {
  try {
    const {records} = await api("POST", "/api/records", JSON.parse(await file.text()));
    await loadRecords(records[0].id);
  } catch (e) { shout(e); }
}

function mode(name) {
  $("tab-play").classList.toggle("on", name === "play");
  $("tab-watch").classList.toggle("on", name === "watch");
  $("play-form").hidden = name !== "play";
  $("watch-form").hidden = name !== "watch";
  $("table").hidden = true;
  if (name === "watch") loadRecords().catch(shout);
}

async function main() {
  ({games} = await api("GET", "/api/games"));
  $("game").replaceChildren(...games.map((g) => el("option", {value: g.name}, g.title)));
  $("game").onchange = fillForm;
  $("seat").onchange = seatChosen;
  fillForm();
  $("start").onclick = start;
  $("tab-play").onclick = () => mode("play");
  $("tab-watch").onclick = () => mode("watch");
  $("record").onchange = chooseRecord;
  $("watch-seat").onchange = () => showStep(watch.step);
  $("record-file").onchange = (e) => e.target.files[0] && uploadRecord(e.target.files[0]);
  $("first").onclick = () => showStep(0);
  $("back").onclick = () => showStep(watch.step - 1);
  $("forward").onclick = () => showStep(watch.step + 1);
  $("last").onclick = () => showStep(watch.record.steps);
  await resume();
  document.body.dataset.loaded = "1";
}
main().catch(shout);
