// The table in the browser: draws what the server sends (a seat's view_json) and sends the
// person's clicks back. It never decides what is legal: only the moves the server lists are
// buttons. No build step, no library.
"use strict";
const $ = (id) => document.getElementById(id);
const PACE = Number(new URLSearchParams(location.search).get("pace") ?? 700);
let games = [], play = null, watch = null, queue = [], busy = false;

async function api(method, path, body) {
  const response = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                      body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
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
function showPlay(state) {
  play = {...play, id: state.id ?? play.id, version: state.version, since: state.next,
          state};
  queue.push(...state.events);
  if (!busy) drain();
}

function drain() {
  busy = queue.length > 0;
  document.body.dataset.busy = busy ? "1" : "";
  if (!busy) { settle(); return; }
  const event = queue.shift();
  news(event.lines);
  render(event.view, false);
  setTimeout(drain, event.kind === "move" ? PACE : 0);
}

function settle() {
  const s = play.state, view = s.view;
  render(view, true);
  const totals = s.totals.map((t, i) => `${view.names[i]} ${t >= 0 ? "+" : ""}${t}`).join(" · ");
  $("score").replaceChildren(el("div", {}, `${s.title}, ${s.unit} ${s.episode} · running score: ${totals}`),
    ...(view.over ? [el("button", {id: "next", on: nextEpisode}, `Next ${s.unit}`)] : []));
  document.body.dataset.ready = view.over ? "over" : "turn";
}

async function sendMove(move) {
  if (busy) return;
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

function fillForm() {
  const g = games.find((x) => x.name === $("game").value);
  $("seat").replaceChildren(...[...Array(g.players).keys()].map((s) => el("option", {value: s}, `seat ${s}`)));
  $("agents").replaceChildren(...[...Array(g.players).keys()].map((s) => el("label", {},
    `seat ${s} `, el("select", {class: "agent", "data-seat": s},
      ...g.agents.map((a) => el("option", {value: a}, a))))));
  for (const sel of document.querySelectorAll(".agent")) sel.value = g.agents.includes("greedy") ? "greedy" : g.agents[0];
  $("rules").replaceChildren(...Object.entries(g.rules).map(([k, v]) => el("label", {}, `${k} `,
    el("input", {class: "rule", "data-rule": k, "data-kind": typeof v, size: 8,
                 ...(typeof v === "boolean" ? {type: "checkbox", ...(v ? {checked: ""} : {})}
                                            : {value: v})}))));
}

async function start() {
  const rules = {};
  for (const input of document.querySelectorAll(".rule")) {
    const kind = input.dataset.kind, k = input.dataset.rule;
    rules[k] = kind === "boolean" ? input.checked : kind === "number" ? Number(input.value) : input.value;
  }
  const body = {game: $("game").value, seat: Number($("seat").value), rules,
                agents: [...document.querySelectorAll(".agent")].map((s) => s.value)};
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  queue = []; $("news").replaceChildren(); $("open-hands").replaceChildren();
  play = {};
  try { showPlay(await api("POST", "/api/games", body)); } catch (e) { shout(e); }
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
  document.body.dataset.loaded = "1";
}
main().catch(shout);
