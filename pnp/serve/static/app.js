// pnp serve: the page. Forms come from the server (made from each game's sheet schema),
// so nothing here knows a game: only widgets (text, number, bool, choice, list, map,
// grid, track, order, slots), problems placed at the field or cell they concern, and a
// generic view of `pnp score --json` reports.
"use strict";

const app = document.getElementById("app");
let poll = null;
let unsent = 0, sending = 0, queue = Promise.resolve();  // edits not yet sent; requests not yet answered
// The changes this page made that the server has not confirmed, by what each changes (a
// field, one key of a field, one grid cell, one choice of a list of picks, `done`): a save
// carries only these, so another page's saves to the same board stay. A change whose request failed stays here, marked on
// the page: "retry" (the server was away) is sent again with the next request and when a poll
// finds the server back; "refused" (the server said why) waits until it is made again.
// Kept by page (a session's table, one board) while the player looks at another page: a
// page left behind sends its own again (`resendLeft`), and shows them when it is back.
const pages = new Map();  // page ("s/ID/table", "s/ID/p/SEAT") -> {pending, url}
let here = null, pending = new Map();
let edits = 0;  // changes made on this page: a poll answered after a change may be older than it
// Entries begun but not complete (an order half tapped), by widget id: what the page says of
// each. Not sent, so not saved: the page says so, and they go with the page when it is left.
const drafts = new Map();

function draft(id, line) {
  if (line === null) drafts.delete(id); else drafts.set(id, line);
  showSync();
}

function counted(n, one, many) {
  return `${n} ${n === 1 ? one : many || one + "s"}`;
}

function showSync() {
  // "Saving…" until every edit is sent and answered: a player knows when the phone can be put down
  const failed = [...pending.values()].filter(e => e.failed);
  const state = unsent + sending > 0 ? "saving" : failed.length ? "failed" : drafts.size ? "unsaved" : "saved";
  document.documentElement.dataset.sync = state;
  const line = document.getElementById("save-state");
  if (line) line.textContent = {saving: "Saving…", saved: "Every change is saved", unsaved: [...drafts.values()].join("; "),
    failed: failed.some(e => e.failed === "retry" && !e.status) ? `The server did not answer: your changes are kept and sent again when it does (${counted(failed.length, "change")}, marked)`
      : failed.some(e => e.failed === "retry") ? `${counted(failed.length, "change")} not saved yet (marked): sent again once the server answers`
      : `${counted(failed.length, "change")} not saved (marked, see above): change it again`}[state];
  marked();
}

function marked() {
  // every change not saved is marked where it was made: its field, its cell, the box ticked
  document.querySelectorAll(".unsaved").forEach(e => e.classList.remove("unsaved"));
  if (![...pending.values()].some(e => e.failed)) document.querySelectorAll("[data-save-error]").forEach(e => e.replaceChildren());  // its reason, told at the top
  for (const e of pending.values()) {
    if (!e.failed) continue;
    const field = e.kind === "done" ? document.getElementById("done") : document.querySelector(`.field[data-key="${CSS.escape(e.key)}"]`);
    const cell = field && e.kind === "cell" ? field.querySelector(`.cell[data-row="${e.part[0]}"][data-col="${e.part[1]}"]`) : null;
    if (field) (cell || field).classList.add("unsaved");
  }
  for (const id of drafts.keys()) {
    const field = document.getElementById(id)?.closest(".field");
    if (field) field.classList.add("unsaved");
  }
}

function change(kind, key, part, value) {
  // a change made on this page: it replaces an unsent one of the same thing
  pending.set(JSON.stringify([kind, key, part ?? null]), {kind, key, part, value, failed: null});
  edits++;
}

function isPending(key, part) {
  for (const e of pending.values()) if (e.key === key && (part === undefined || JSON.stringify(e.part) === JSON.stringify(part))) return true;
  return false;
}

function applied(values, list) {
  // the values as saved with this page's unsaved changes made on them: a page left and come
  // back to shows what the player entered, not yet saved, as it was
  const out = Object.assign({}, values);
  for (const e of pending.values()) {
    const f = list.find(x => x.key === e.key);
    if (!f) continue;
    if (e.kind === "value") out[e.key] = e.value;
    else if (e.kind === "part") out[e.key] = Object.assign({}, out[e.key] || {}, {[e.part]: e.value});
    else if (e.kind === "cell") {
      const rows = gridRows(f, out[e.key]);
      rows[e.part[0] - 1][e.part[1] - 1] = e.value;
      out[e.key] = rows.map(r => r.join(" ")).join("\n");
    } else if (e.kind === "item") {
      const [inner, item] = Array.isArray(e.part) ? e.part : [null, e.part];
      const group = inner === null ? out : (out[e.key] = Object.assign({}, out[e.key] || {}));
      const name = inner === null ? e.key : inner;
      const now = (group[name] || []).filter(x => x !== item);
      group[name] = e.value ? now.concat([item]) : now;
    }
  }
  return out;
}

function body(entries) {
  const out = {values: {}};
  for (const e of entries) {
    if (e.kind === "done") out.done = e.value;
    else if (e.kind === "value") out.values[e.key] = e.value;
    else if (e.kind === "part") ((out.parts ??= {})[e.key] ??= {})[e.part] = e.value;
    else if (e.kind === "item") {  // a choice tapped on or off: part is it, or [field inside a group, it]
      const [inner, item] = Array.isArray(e.part) ? e.part : [null, e.part];
      const at = (out.items ??= {})[e.key] ??= {};
      const toggle = inner === null ? at : (at[inner] ??= {});
      (toggle[e.value ? "add" : "remove"] ??= []).push(item);
    }
    else ((out.cells ??= {})[e.key] ??= []).push([...e.part, e.value]);
  }
  return out;
}

function send(put, changes = pending) {
  // one request at a time, in the order made: a later change never lands before an earlier
  // one. Each carries every change not yet saved (but those refused), failed ones again.
  sending++;
  showSync();
  queue = queue.then(async () => {
    const sent = [...changes.entries()].filter(([, e]) => e.failed !== "refused");
    if (!sent.length) return;
    try {
      await put(body(sent.map(([, e]) => e)));
      for (const [id, e] of sent) if (changes.get(id) === e) changes.delete(id);  // a newer change of it is still to send
    } catch (err) {
      // refused for one change it names (`at`): that one alone waits to be made again, the
      // others of the batch are sent again without it; refused unnamed, or away: all of them
      const named = err.status && err.status < 500 && err.at ? sent.filter(([, e]) => refusedBy(err.at, e)) : [];
      for (const [, e] of named.length ? named : sent) Object.assign(e, {failed: err.status && err.status < 500 ? "refused" : "retry", status: err.status});
      if (named.length && named.length < sent.length) send(put, changes);
    }
  }).finally(() => { sending--; showSync(); });
  return queue;
}

function refusedBy(at, e) {
  // whether a refusal's `at` (["values", field], ["parts", field], ["cells", grid, [row, col]],
  // ["items", field]: as `body` sends it) names this change
  const [section, key, part] = at;
  const kind = {values: "value", parts: "part", cells: "cell", items: "item"}[section];
  return e.kind === kind && e.key === key && (part === undefined || JSON.stringify(e.part) === JSON.stringify(part));
}

// The control last tapped. A save's answer can add or remove a problem line above it (at a
// field higher up the page); the page then scrolls by as much, so that it stays under the
// finger and the next tap lands where it was aimed.
let touched = null;
document.addEventListener("pointerdown", e => { touched = e.target.closest("button, select, input, label") || e.target; }, true);

function steady(change) {
  const anchor = touched && touched.isConnected ? touched : null;
  const before = anchor ? anchor.getBoundingClientRect().top : 0;
  change();
  if (anchor && anchor.isConnected) window.scrollBy(0, anchor.getBoundingClientRect().top - before);
}

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

const NO_ANSWER = "The server did not answer";

async function api(method, url, body) {
  let res;
  try {
    res = await fetch(url, {method, headers: body ? {"content-type": "application/json"} : {}, body: body ? JSON.stringify(body) : undefined});
  } catch (e) { throw new Error(NO_ANSWER); }  // no status: the browser's own words ("Failed to fetch") tell a player nothing
  let data;
  try { data = await res.json(); } catch (e) { data = {error: `${res.status} ${res.statusText}`}; }
  if (!res.ok) throw Object.assign(new Error(data.error || `${res.status}`), {status: res.status, at: data.at});
  return data;
}

function showError(where, err) {
  where.replaceChildren(h("div", {class: "problem", role: "alert"}, String(err.message || err)));
}

// ---------------------------------------------------------------- routing

function at(page, url) {
  // this page's unsaved changes: those it left when the player went to another page
  if (!pages.has(page)) pages.set(page, {pending: new Map(), url});
  here = page;
  pending = pages.get(page).pending;
}

function resendLeft() {
  // the changes of pages left behind that the server did not get: sent again to their own board
  for (const [page, p] of pages) {
    if (page !== here && [...p.pending.values()].some(e => e.failed !== "refused")) send(body => api("PUT", p.url, body), p.pending);
  }
}

async function route() {
  if (poll) { clearInterval(poll); poll = null; }
  here = null;
  pending = new Map();  // a failed save of the page left behind is told there, not here
  drafts.clear();  // an entry left half done is dropped: what was saved stays
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  try {
    if (parts[0] === "s" && parts[1] && parts[2] === "p") await playerPage(parts[1], Number(parts[3]));
    else if (parts[0] === "s" && parts[1]) await hostPage(parts[1]);
    else if (parts[0] === "stats") await statsPage();
    else await homePage();
  } catch (err) {
    showError(app, err.message === NO_ANSWER ? new Error(`${NO_ANSWER}: this page is shown again as soon as it does`) : err);
    if (err.message === NO_ANSWER) poll = setTimeout(route, 2000);  // recovers by itself once the server is back
  }
}
window.addEventListener("hashchange", route);
setInterval(() => { if (unsent + sending === 0) resendLeft(); }, 2000);
// a change not yet saved (on any page of this game) is lost with the page: the browser asks first
window.addEventListener("beforeunload", e => {
  if (unsent + sending > 0 || [...pages.values()].some(p => p.pending.size)) { e.preventDefault(); e.returnValue = ""; }
});

// ---------------------------------------------------------------- home: start a game

// What a new game's request names by its key (`rules: ...`), as the start page labels it
const HOST_LABELS = {rules: "Rule version", changes: "Rule changes", players: "Players", game: "Game"};

// whether a rule version's title already says its id ("Published rules", published): then the id is not shown beside it
function saysId(label, id) {
  return String(label).toLowerCase().includes(String(id).toLowerCase());
}

function hostWords(err) {
  return new Error(String(err.message || err).replace(/^(rules|changes|players|game): /, (_, k) => `${HOST_LABELS[k]}: `));
}

async function homePage() {
  const [listed, sessions] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/sessions")]);
  // a game whose plugin fails comes with its error instead of its players: shown, not offered
  const games = listed.filter(g => !g.error), broken = listed.filter(g => g.error);
  const out = h("div", {});
  const gameSel = h("select", {id: "game"}, games.map(g => h("option", {value: g.name}, g.title)));
  const rulesBox = h("div", {}), countBox = h("div", {}), namesBox = h("div", {}), err = h("div", {});
  const changes = h("textarea", {id: "changes", rows: 2, placeholder: "cravings.troll.points=3"});
  const changesBox = h("div", {}, h("label", {for: "changes"}, "Rule changes ", h("span", {class: "help"}, "one KEY=VALUE a line, as pnp simulate --set")), changes);
  let count = null;
  function game() { return games.find(g => g.name === gameSel.value); }
  function names(n) {
    const old = [...namesBox.querySelectorAll("input")].map(i => i.value);
    namesBox.replaceChildren(...Array.from({length: n}, (_, i) =>
      h("div", {}, h("label", {for: `name-${i}`}, `Player ${i + 1} `, h("span", {class: "help"}, i === 0 ? "seat order, clockwise" : "")),
        h("input", {type: "text", id: `name-${i}`, value: old[i] || "", autocomplete: "off", maxlength: 60}))));
  }
  function pickGame() {
    const g = game();
    rulesBox.replaceChildren();
    changesBox.hidden = !g.rules;
    if (g.rules) {
      const diff = h("div", {});
      const pick = h("select", {id: "rules", onchange: () => diff.replaceChildren(versionDifferences(g.rules.find(r => r.value === pick.value)) || "")},
        g.rules.map(r => h("option", {value: r.value}, saysId(r.label, r.value) ? r.label : `${r.label} (${r.value})`)));
      rulesBox.append(h("label", {for: "rules"}, "Rule version"), pick, diff);
    }
    count = h("select", {id: "count", onchange: () => names(Number(count.value))},
      g.players.map(n => h("option", {value: n}, n === 1 ? "1 (solo)" : String(n))));
    count.value = String(g.players.includes(2) ? 2 : g.players[0]);
    countBox.replaceChildren(h("label", {for: "count"}, "Players"), count);
    names(Number(count.value));
  }
  gameSel.addEventListener("change", pickGame);
  async function start() {
    const g = game();
    const rules = g.rules ? document.getElementById("rules").value : null;
    const changed = {};
    for (const line of changes.value.split("\n")) {
      if (!line.trim()) continue;
      const at = line.indexOf("=");
      if (at < 1) { showError(err, new Error(`rule change ${JSON.stringify(line)}: expected KEY=VALUE`)); return; }
      const raw = line.slice(at + 1).trim();
      changed[line.slice(0, at).trim()] = /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw === "true" ? true : raw === "false" ? false : raw;
    }
    const players = [...namesBox.querySelectorAll("input")].map(i => i.value.trim());
    try {
      const s = await api("POST", "/api/sessions", {game: g.name, rules, changes: g.rules ? changed : {}, players});
      location.hash = `#/s/${s.id}`;
    } catch (e) { showError(err, hostWords(e)); }
  }
  out.append(h("section", {}, h("h1", {}, "New game"), h("label", {for: "game"}, "Game"), gameSel, rulesBox, changesBox, countBox, namesBox, err,
    h("p", {}, h("button", {id: "start", onclick: start}, "Start the game")),
    ...broken.map(g => h("div", {class: "problem", role: "alert"}, `${g.title || g.name} cannot be played: ${g.error}`))));
  // a game by its title (its id for one no longer in the project), started at a time as the phone says it; the API keeps both ids
  const titles = Object.fromEntries(listed.map(g => [g.name, g.title]));
  const started = t => new Date(t).toLocaleString(undefined, {day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit"});
  if (sessions.length) out.append(h("section", {}, h("h2", {}, "Games at this table"),
    h("ul", {}, sessions.map(s => h("li", {}, h("a", {href: `#/s/${s.id}`}, `${titles[s.game] || s.game}: ${s.players.join(", ")}`),
      ` started ${started(s.created)}${s.logged ? " (logged)" : ""}`)))));
  out.append(h("p", {}, h("a", {class: "button", href: "#/stats"}, "Statistics of logged games")));
  app.replaceChildren(out);
  if (games.length) pickGame();
}

// ---------------------------------------------------------------- widgets

function mark(button, on) {  // a toggle's state, seen and told to a screen reader
  button.classList.toggle("on", on);
  button.setAttribute("aria-pressed", on ? "true" : "false");
}

function tileClass(field, symbol) {
  const entry = (field.palette || []).find(p => p.symbol === symbol);
  if (symbol === field.empty || !entry) return "shape-empty";
  if (entry.leader) return "shape-leader";
  return `shape-${field.palette.filter(p => !p.leader).indexOf(entry) % 6}`;
}

function gridRows(field, value) {
  const rows = String(value || "").split("\n").filter(r => r.trim()).map(r => r.trim().split(/\s+/));
  return Array.from({length: field.rows}, (_, r) => Array.from({length: field.cols}, (_, c) => (rows[r] && rows[r][c]) || field.empty));
}

// A widget: an element whose `set(value, pendingPart)` shows a value saved elsewhere (polling
// calls it), leaving what this page is still editing or saving; `changed(value, part)` tells
// a change of the whole field, or of one key or cell (`part`) of it.
function widget(field, value, changed, id, ctx) {
  const k = field.kind;
  if (k === "grid") return gridWidget(field, value, changed, id, ctx);
  if (k === "track") {
    let cur = value;
    const box = h("div", {class: "track", id});
    // an optional track can be emptied again ("—"), as an optional list can
    const clear = field.optional || field.nullable ? [h("button", {type: "button", class: "ghost", "data-value": "", "aria-label": `${field.label}: none`,
      onclick: () => { cur = null; draw(); changed(null); }}, "—")] : [];
    const draw = () => box.replaceChildren(...clear, ...Array.from({length: field.max - field.min + 1}, (_, i) => {
      const n = field.min + i;
      return h("button", {type: "button", class: n === cur ? "on" : "", "data-value": n, "aria-pressed": n === cur ? "true" : "false",
        onclick: () => { cur = n; draw(); changed(n); }}, n);
    }));
    draw();
    box.set = v => { if (v !== cur) { cur = v; draw(); } };
    return box;
  }
  if (k === "order") {
    // The order shown is the one saved (or being saved); a new one is tapped apart from it and
    // sent only once complete. Until then it is a draft: the page says it is not saved and how
    // many taps are left, and the saved order stays shown (and kept, if it is left half done).
    let saved = Array.isArray(value) ? value.slice() : [], cur = null;
    const all = field.choices.length;
    const box = h("div", {id});
    const tapped = v => {
      if (cur === null) cur = [];  // a tap on a card starts a new order: tap them left to right
      cur.push(v);
      if (cur.length === all) { saved = cur; cur = null; changed(saved.slice()); }
      draw();
    };
    const draw = () => {
      // what the save line says of the draft, from the same state as the widget (a poll may bring another saved order)
      draft(id, cur === null ? null : `New ${field.label}: ${counted(all - cur.length, "tap")} left, not saved until complete (saved: ${saved.length ? saved.join(" → ") : "none"})`);
      box.replaceChildren(
        h("div", {}, "Order: ", h("strong", {class: "order-now"}, saved.length ? saved.join(" → ") : "tap the cards left to right")),
        // no draft: "", not null, which replaceChildren would show as "null"
        cur === null ? "" : h("div", {class: "order-draft"}, "New order: ", h("strong", {}, [...cur, "…"].join(" → ")),
          ` ${counted(all - cur.length, "tap")} left: not saved until complete`),
        h("div", {class: "row"}, field.choices.map(c => h("button", {type: "button", "data-value": c.value,
          disabled: cur !== null && cur.includes(c.value), onclick: () => tapped(c.value)}, c.label)),
          cur === null ? h("button", {type: "button", class: "ghost", onclick: () => { cur = []; draw(); }}, "again")
            : h("button", {type: "button", class: "ghost keep", onclick: () => { cur = null; draw(); }}, "keep the saved order")));
    };
    draw();
    box.set = v => {  // the order saved elsewhere; a new one half tapped here stays a draft beside it
      const now = Array.isArray(v) ? v.slice() : [];
      if (JSON.stringify(now) !== JSON.stringify(saved)) { saved = now; draw(); }
    };
    return box;
  }
  if (k === "group") {  // a record of its own fields, e.g. the solo opponent: each saved as a key of it
    const cur = Object.assign({}, value || {});
    const inner = {};
    const box = h("div", {id, class: "group"}, field.fields.map(f => h("div", {class: "field"},
      h("label", {for: `${id}-${f.key}`}, f.label, f.optional ? " (optional)" : "", " ", h("span", {class: "help"}, f.help)),
      inner[f.key] = widget(f, cur[f.key], (v, part) => {
        if (part && part.item !== undefined) {  // a choice of a list of picks: sent alone
          const list = (cur[f.key] || []).filter(x => x !== part.item);
          cur[f.key] = v ? list.concat([part.item]) : list;
          return changed(v, {item: [f.key, part.item]});
        }
        cur[f.key] = part === undefined ? v : Object.assign({}, cur[f.key] || {}, {[part]: v});
        changed(cur[f.key], f.key);
      }, `${id}-${f.key}`))));
    box.set = (v, pendingPart) => {
      for (const f of field.fields) {
        const now = (v || {})[f.key];
        if (pendingPart(f.key) || !inner[f.key].set) continue;
        cur[f.key] = now;
        inner[f.key].set(now, p => pendingPart([f.key, p]));  // a pick tapped here, not yet saved
      }
    };
    return box;
  }
  if (k === "slots") {  // each slot saved as a key of the field
    const cur = Object.assign({}, value || {});
    const selects = {};
    const box = h("div", {id}, field.slots.map(slot => h("div", {class: "row"}, h("span", {class: "tile shape-leader"}, slot),
      selects[slot] = h("select", {"data-slot": slot, style: "flex:1", "aria-label": `leader ${slot}`, onchange: e => { cur[slot] = e.target.value || null; changed(cur[slot], slot); }},
        h("option", {value: ""}, "—"), field.choices.map(c => h("option", {value: c.value, selected: cur[slot] === c.value}, c.label))))));
    box.set = (v, pendingPart) => {
      for (const slot of field.slots) {
        if (pendingPart(slot)) continue;
        cur[slot] = (v || {})[slot] ?? null;
        selects[slot].value = cur[slot] ?? "";
      }
    };
    return box;
  }
  if (k === "choice") {
    const sel = h("select", {id, onchange: e => changed(e.target.value === "" ? null : field.choices[Number(e.target.value)].value)},
      field.nullable || value === null || value === undefined ? h("option", {value: ""}, "—") : null,
      field.choices.map((c, i) => h("option", {value: i, selected: c.value === value}, c.label)));
    sel.set = v => {
      const i = field.choices.findIndex(c => c.value === v);
      if (i >= 0) sel.value = String(i);
      else if (sel.querySelector("option[value='']")) sel.value = "";
    };
    return sel;
  }
  if (k === "picks") {  // several of a list (the A.I.'s cards): each tap takes one in or out
    // a list of picks hinted `alone` (a claimed winner) is saved as its sheet writes it: one pick as that value
    const picked = v => new Set(Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]);
    let cur = picked(value);
    const count = h("strong", {class: "picked-count"});
    const names = h("span", {class: "help"});
    const shown = () => {
      const picks = field.choices.filter(c => cur.has(c.value)).map(c => c.label).join(", ");
      if (field.alone) {  // a claimed winner: who, or that nobody is claimed yet (not a count)
        count.textContent = picks || "not claimed";
        names.textContent = "";
        return;
      }
      count.textContent = counted(cur.size, "chosen", "chosen");
      names.textContent = cur.size ? ": " + picks : "";
    };
    const buttons = field.choices.map(c => {
      const b = h("button", {type: "button", "data-value": c.value, onclick: () => {
        if (cur.has(c.value)) cur.delete(c.value); else cur.add(c.value);
        // one taken alone ("nobody" won) leaves the others, and another leaves it, as the server saves them
        const alone = field.alone || [];
        if (cur.has(c.value)) for (const o of [...cur]) if (o !== c.value && (alone.includes(c.value) || alone.includes(o))) cur.delete(o);
        field.choices.forEach((o, i) => mark(buttons[i], cur.has(o.value)));
        shown();
        changed(cur.has(c.value), {item: c.value});  // only this card: another page's taps stay
      }}, c.label);
      mark(b, cur.has(c.value));
      return b;
    });
    shown();
    // a long list: typing part of a name leaves only the cards that hold it
    const find = h("input", {type: "search", placeholder: "find by name", "aria-label": `find in ${field.label}`, oninput: e => {
      const q = e.target.value.trim().toLowerCase();
      field.choices.forEach((c, i) => { buttons[i].hidden = !!q && !c.label.toLowerCase().includes(q); });
    }});
    const box = h("div", {id, class: "picks"}, h("div", {}, count, names), field.choices.length > 8 ? find : null, h("div", {class: "choices"}, buttons));
    box.set = (v, pendingPart) => {  // the picks saved; a tap of this page not yet saved stays
      const now = picked(v);
      for (const c of field.choices) if (pendingPart(c.value)) { if (cur.has(c.value)) now.add(c.value); else now.delete(c.value); }
      cur = now;
      field.choices.forEach((c, i) => mark(buttons[i], cur.has(c.value)));
      shown();
    };
    return box;
  }
  if (k === "bool") {
    const box = h("input", {type: "checkbox", id, checked: !!value, onchange: e => changed(e.target.checked)});
    box.set = v => { box.checked = !!v; };
    return box;
  }
  // typed fields: not while the player is typing in it
  const typed = (input, shown) => { input.set = v => { if (!input.dataset.typing && document.activeElement !== input) input.value = shown(v); }; return input; };
  if (k === "number") {
    return typed(h("input", {type: "number", id, inputmode: "numeric", value: value ?? "", min: field.min ?? null, max: field.max ?? null,
      oninput: debounce(e => changed(e.target.value === "" ? null : Number(e.target.value)))}), v => v ?? "");
  }
  if (k === "list") {  // comma-separated: an item may hold spaces (a name printed on a card); none is left out of the sheet
    const shown = v => Array.isArray(v) ? v.join(", ") : "";
    return typed(h("input", {type: "text", id, value: shown(value), placeholder: "values, comma-separated",
      oninput: debounce(e => {
        const items = e.target.value.split(/[,\n]/).map(v => v.trim()).filter(Boolean).map(v => /^-?\d+$/.test(v) ? Number(v) : v);
        changed(items.length || !field.optional ? items : null);
      })}), shown);
  }
  if (k === "map" && field.keys && field.values === "number") {
    // a number for each key (a player's earlier wins): each box saved as its key; an empty box leaves it out
    const cur = value || {};
    const inputs = {};
    const box = h("div", {id, class: "keyed"}, field.keys.map((key, i) => h("div", {class: "row"},
      h("label", {for: `${id}-${i}`}, key.label),
      inputs[key.value] = typed(h("input", {type: "number", id: `${id}-${i}`, "data-name": key.value, inputmode: "numeric", value: cur[key.value] ?? "",
        min: field.min ?? null, max: field.max ?? null, style: "width: 6em",
        oninput: debounce(e => changed(e.target.value === "" ? null : Number(e.target.value), key.value))}), v => v ?? ""))));
    box.set = (v, pendingPart) => { for (const key of field.keys) if (!pendingPart(key.value)) inputs[key.value].set((v || {})[key.value]); };
    return box;
  }
  if (k === "map") {
    const shown = v => v ? JSON.stringify(v) : "";
    return typed(h("input", {type: "text", id, value: shown(value), placeholder: '{"key": value}',
      oninput: debounce(e => { try { changed(e.target.value.trim() ? JSON.parse(e.target.value) : null); } catch (err) { /* finished typing later */ } })}), shown);
  }
  return typed(h("input", {type: "text", id, value: value ?? "", oninput: debounce(e => changed(e.target.value === "" && field.nullable ? null : e.target.value))}), v => v ?? "");
}

function gridWidget(field, value, changed, id, ctx) {
  const rows = gridRows(field, value);
  let picked = null;
  const grid = h("div", {class: "grid", id, style: `grid-template-columns: repeat(${field.cols}, 1fr)`});
  const palette = h("div", {class: "palette", hidden: true});
  const cellEl = (r, c) => grid.children[r * field.cols + c];
  const drawCell = (r, c) => {
    const sym = rows[r][c];
    const el = cellEl(r, c);
    el.replaceChildren(h("span", {class: `tile ${tileClass(field, sym)}`}, sym === field.empty ? "" : sym));
    // read out as the tile's name (Helmet), not its letter
    const tile = (field.palette || []).find(p => p.symbol === sym);
    el.setAttribute("aria-label", `row ${r + 1} column ${c + 1}: ${sym === field.empty ? "empty" : tile ? tile.label : sym}`);
    el.dataset.symbol = sym;
  };
  for (let r = 0; r < field.rows; r++) for (let c = 0; c < field.cols; c++) {
    grid.append(h("button", {type: "button", class: "cell", "data-row": r + 1, "data-col": c + 1, onclick: () => {
      if (picked) cellEl(...picked).classList.remove("picked");
      picked = [r, c];
      cellEl(r, c).classList.add("picked");
      relabel();
      palette.hidden = false;
    }}));
    drawCell(r, c);
  }
  const put = symbol => {  // only the cell tapped is sent: another phone's cells of this board stay
    rows[picked[0]][picked[1]] = symbol;
    drawCell(...picked);
    changed(symbol, [picked[0] + 1, picked[1] + 1]);
  };
  const entries = (field.palette && field.palette.length ? field.palette : []).concat([{symbol: field.empty, label: "empty"}]);
  // a leader's entry reads as the leader chosen for its digit in another field (labels_from)
  const label = p => {
    const source = p.leader && field.labels_from && ctx && ctx.list.find(f => f.key === field.labels_from);
    const chosen = source && (ctx.live[field.labels_from] || {})[p.leader];
    const name = ((source && source.choices || []).find(c => c.value === chosen) || {label: chosen}).label;
    return chosen ? `${p.leader}: ${name}` : p.label;
  };
  const buttons = entries.map(p => h("button", {type: "button", "data-symbol": p.symbol, onclick: () => {
    if (!picked) return;
    put(p.symbol);
  }}, h("span", {class: `tile ${tileClass(field, p.symbol)}`}, p.symbol === field.empty ? "·" : p.symbol), h("span", {class: "name"}, p.label)));
  const relabel = () => entries.forEach((p, i) => { buttons[i].querySelector(".name").textContent = label(p); });
  palette.append(...buttons);
  if (!field.palette || !field.palette.length) {
    const free = h("input", {type: "text", maxlength: 1, placeholder: "symbol", "aria-label": "symbol for the cell", oninput: e => {
      if (!picked || !e.target.value.trim()) return;
      put(e.target.value.trim());
    }});
    palette.prepend(free);
  }
  const box = h("div", {}, grid, palette);
  box.set = (v, pendingPart) => {  // another page's cells; this page's own not yet saved stay
    const now = gridRows(field, v);
    for (let r = 0; r < field.rows; r++) for (let c = 0; c < field.cols; c++) {
      if (now[r][c] !== rows[r][c] && !pendingPart([r + 1, c + 1])) { rows[r][c] = now[r][c]; drawCell(r, c); }
    }
    relabel();
  };
  return box;
}

function debounce(fn) {
  // a typed field is sent after a pause in typing; until then the page says it is saving
  let t = null;
  return e => {
    if (t === null) unsent++; else clearTimeout(t);
    e.target.dataset.typing = "1";
    showSync();
    t = setTimeout(() => { t = null; unsent--; delete e.target.dataset.typing; fn(e); showSync(); }, 250);
  };
}

// A form section: each field with its label, help, widget and problem area. `save(kind, key,
// part, value)` takes one change; `sync(values)` shows values saved elsewhere.
function fields(list, values, save, prefix) {
  const ctx = {list, live: Object.assign({}, values)};  // the values as this page has them, for widgets that show another field's
  const widgets = {};
  const els = list.map(f => {
    const id = `${prefix}-${f.key}`;
    widgets[f.key] = widget(f, values[f.key], (v, part) => {
      // a choice of a list of picks (no widget shows one of another field's: ctx.live left as it is)
      if (part && part.item !== undefined) return save("item", f.key, part.item, v);
      if (part === undefined) ctx.live[f.key] = v;
      else if (f.kind !== "grid") ctx.live[f.key] = Object.assign({}, ctx.live[f.key] || {}, {[part]: v});
      save(part === undefined ? "value" : f.kind === "grid" ? "cell" : "part", f.key, part, v);
    }, id, ctx);
    return h("div", {class: "field", "data-key": f.key},
      h("label", {for: id}, f.label, f.optional ? " (optional)" : "", " ", h("span", {class: "help"}, f.help)),
      widgets[f.key],
      h("div", {class: "problems", "data-for": f.key}));
  });
  const sync = got => {
    for (const f of list) {
      const w = widgets[f.key];
      if (!w.set) continue;
      const whole = ["group", "slots", "grid", "picks"].includes(f.kind) || (f.kind === "map" && !!f.keys);  // saved by parts
      if (!whole && isPending(f.key)) continue;  // this page's change is not saved yet: it stays as made
      if (!whole || !isPending(f.key)) ctx.live[f.key] = got[f.key];
      w.set(got[f.key], part => isPending(f.key, part));
    }
  };
  return {els, sync};
}

// ---------------------------------------------------------------- problems and results

function place(root, problems, mine) {
  root.querySelectorAll(".problems").forEach(p => p.replaceChildren());
  root.querySelectorAll(".cell.bad").forEach(c => c.classList.remove("bad"));
  const general = root.querySelector(".problems[data-for='']");
  for (const p of problems) {
    const key = mine(p.at);
    if (key === undefined) continue;
    const box = (key !== null && root.querySelector(`.problems[data-for="${CSS.escape(String(key))}"]`)) || general;
    if (!box) continue;
    // in the form's words (`said`: its labels and names), not the sheet's keys and ids the CLI names
    box.append(h("div", {class: "problem", "data-at": p.at.join("."), "data-cell": p.cell ? p.cell.join(",") : null}, p.said || p.message));
    if (p.cell && key !== null) {
      const field = root.querySelector(`.field[data-key="${CSS.escape(String(key))}"]`);
      const cell = field && field.querySelector(`.cell[data-row="${p.cell[0]}"][data-col="${p.cell[1]}"]`);
      if (cell) cell.classList.add("bad");
    }
  }
}

function versionDifferences(version) {
  // what a rule version changes from the game's default rules, folded away
  const lines = (version && version.differences) || [];
  return lines.length ? h("details", {class: "rules"}, h("summary", {}, `${counted(lines.length, "difference")} from ${version.base}`),
    h("ul", {}, lines.map(l => h("li", {}, l)))) : null;
}

function rulesLine(s) {
  const bits = [s.title];
  if (s.rules) bits.push(`rules: ${(s.rule_version && s.rule_version.label) || s.rules}`);
  const changes = Object.entries(s.changes || {});
  return h("div", {id: "rules-line"}, h("p", {class: "rules"}, bits.join(" · "),
    changes.length ? h("span", {}, h("br"), h("strong", {}, "Rule changes: "), changes.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(", ")) : null),
    versionDifferences(s.rule_version));
}

const NOT_PARTS = ["name", "seat", "leaders", "total", "claimed", "claim_ok", "winner"];

function pointsOf(p) {
  // a report's player: the points of its leaders and of its parts (`damage: {points}`), and
  // its top-level numbers by key (`craving`, or a count such as `empty_cells`)
  let points = 0;
  const numbers = {};
  for (const l of p.leaders || []) if (typeof l.points === "number") points += l.points;
  for (const [k, v] of Object.entries(p)) {
    if (NOT_PARTS.includes(k) || k === "rank" || v === null) continue;
    if (typeof v === "number") numbers[k] = v;
    else if (typeof v === "object" && !Array.isArray(v) && typeof v.points === "number") points += v.points;
  }
  return {points, numbers};
}

function countsOf(players) {
  // the top-level numbers that are no part of the total, but a count kept for a tie-break
  // (Tasty Humans' empty cells): the one key without which every player's numbers add up
  // to their total, when with it they do not. None when the numbers add up (or no total).
  const sums = players.filter(p => typeof p.total === "number").map(p => ({total: p.total, ...pointsOf(p)}));
  const adds = (without) => sums.every(x => x.points + Object.entries(x.numbers).reduce((t, [k, n]) => t + (k === without ? 0 : n), 0) === x.total);
  if (!sums.length || adds(null)) return [];
  const keys = [...new Set(sums.flatMap(x => Object.keys(x.numbers)))].filter(adds);
  return keys.length === 1 ? keys : [];
}

function namer(fields, labels = {}) {
  // a report's keys and values in the words of the form's fields (a group's as "group.key"):
  // a field's label, a choice's name (the monster board's, the leader tile's); the report
  // and the sheet keep the ids
  const byKey = new Map();
  const walk = (list, prefix) => { for (const f of list || []) { byKey.set(prefix + f.key, f); if (f.kind === "group") walk(f.fields, `${prefix}${f.key}.`); } };
  walk(fields, "");
  return {
    label: k => (byKey.get(k) || {}).label || labels[k] || k.replace(/_/g, " "),
    value: (k, v) => (((byKey.get(k) || {}).choices || []).find(c => c.value === v) || {label: v}).label,
  };
}

function partsOf(p, ranked, counts = [], names = namer([])) {
  // a report's player as rows of (what, points): leaders itemised, then every other scored
  // part; a text (the monster, the held leader) or a count (`counts`) is said in its row's
  // label, so that the points column holds numbers only, adding up to the total
  // (`ranked`: the ranking table shows each player's rank, which is then no row of theirs)
  const rows = [];
  for (const l of p.leaders || []) rows.push([l.title ? `${l.slot ? l.slot + ". " : ""}${l.title}` : l.id, l.points]);
  for (const [k, v] of Object.entries(p)) {
    if (NOT_PARTS.includes(k) || v === null) continue;
    if (ranked && k === "rank") continue;
    if (typeof v === "boolean") continue;  // flags (fuzz, king held) are told by the rows they change
    if (typeof v === "object" && !Array.isArray(v)) {
      // a part's counts beside its points (damage: its tiles), so that a tie broken on fewer
      // damage tiles can be checked on the page, not only in the folded text
      const said = Object.entries(v).filter(([x, n]) => x !== "points" && ["number", "boolean"].includes(typeof n))
        .map(([x, n]) => `${x} ${n === true ? "yes" : n === false ? "no" : n}`);
      if ("points" in v) rows.push([said.length ? `${names.label(k)} (${said.join(", ")})` : names.label(k), v.points]);
      continue;
    }
    if (typeof v === "number" && !counts.includes(k)) rows.push([names.label(k), v]);
    else if (typeof v !== "object") rows.push([`${names.label(k)}: ${names.value(k, v)}`, ""]);
  }
  return rows;
}

function soloVerdict(r, solo, names, reason) {
  // the lines `pnp score` ends a solo game with, from its JSON: the A.I.'s score, then the
  // verdict and why (its score, or the challenge met or failed): not folded away
  const p = (r.players || [])[0] || {};
  const ai = solo.ai;
  const won = (r.winners || []).length > 0;
  const why = solo.challenge ? `${names.value("solo.challenge", solo.challenge.name)} ${solo.challenge.met ? "met" : "failed"} (${reason ?? solo.challenge.reason})`
    : `${p.total} ${solo.won ? ">=" : "<"} A.I. ${ai.total}`;
  const level = `A.I. level ${solo.level}${solo.level_name ? ` (${solo.level_name})` : ""}`;
  return [h("p", {class: "winner", id: "winner"}, `${p.name} ${won ? "wins" : "loses"}: ${why}`),
    h("p", {id: "ai"}, `${level}: `, "class_points" in ai ? `classes ${ai.class_points} + shapes ${ai.shape_points} = ` : "", h("strong", {}, ai.total))];
}

function rankingOf(r) {
  // the game's ranking: the report's own, or its players' ranks (a player out of the ranking,
  // e.g. disqualified, last with no place), each with the number it is scored by
  if (r.ranking) return {score: "total", rows: r.ranking};
  const players = r.players || [];
  if (players.length < 2 || !players.some(p => typeof p.rank === "number")) return null;
  const score = players.every(p => "total" in p) ? "total" : "difference";
  const rows = players.map(p => ({place: p.rank, name: p.name, total: p[score]}));
  return {score, rows: rows.sort((a, b) => (a.place ?? Infinity) - (b.place ?? Infinity))};
}

function results(s) {
  const r = s.outcome.report;
  const box = h("section", {id: "results"});
  if (!r || !s.finished) return h("div", {id: "results"});
  box.append(h("h2", {}, "Scores"));
  const winners = r.winners || [];
  const solo = r.solo && typeof r.solo === "object" && r.solo.ai ? r.solo : null;  // a solo game against an A.I. of no seat
  // the readings in the page's words (`outcome.ruling`, `challenge_reason`: no rules.yaml keys), the report's as `pnp score` says them
  if (solo) box.append(...soloVerdict(r, solo, namer(s.form.table), s.outcome.challenge_reason));
  else box.append(h("p", {class: "winner", id: "winner"}, winners.length ? `Winner: ${winners.join(" and ")}` : "No winner"));
  // in the words `pnp score` prints (the report's `decided_by` may be an id); append(null) would show "null"
  const decided = s.outcome.decided || r.decided_by;
  if (decided) box.append(h("p", {id: "decided"}, `Decided by: ${decided}`));
  // pnp's reading of a rule the book is silent on, when it decided the game: said beside what it decided, as `pnp score` does
  if (r.ruling) box.append(h("p", {id: "ruling"}, `Ruling: ${s.outcome.ruling ?? r.ruling}`));
  if (r.long_game) {  // a match of several games (the Long Game): its tally, as `pnp score` ends with it
    const won = r.long_game.winners || [];
    box.append(h("p", {id: "match"}, `Long Game: wins ${Object.entries(r.long_game.wins || {}).map(([n, w]) => `${n} ${w}`).join(", ")}; `,
      h("strong", {}, won.length ? `won by ${won.join(" and ")}` : "nobody has won it yet: play again")));
  }
  const ranking = rankingOf(r);
  if (ranking) box.append(h("table", {id: "ranking"}, h("tr", {}, h("th", {}, "place"), h("th", {}, "player"), h("th", {class: "n"}, ranking.score)),
    ranking.rows.map(x => h("tr", {}, h("td", {}, x.place ?? "—"), h("td", {}, x.name), h("td", {class: "n", "data-total": x.name}, x.total ?? "—")))));
  const counts = countsOf(r.players || []), names = namer(s.form.player, s.form.labels);
  for (const p of r.players || []) {
    const total = "total" in p ? p.total : p.difference;
    box.append(h("h2", {"data-score": p.name, "data-total": total ?? ""}, `${p.name}: ${total ?? "—"}`),
      h("table", {"data-player": p.name}, partsOf(p, ranking !== null, counts, names).map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", {class: "n"}, v)))));
  }
  box.append(h("details", {}, h("summary", {}, "as pnp score prints it"), h("pre", {}, s.outcome.text)));
  return box;
}

function status(s, seat) {
  const waiting = s.players.filter((_, i) => !s.done[i] && i !== seat);
  const others = s.outcome.problems.filter(p => p.at[0] === "players" && p.at.length > 1 && p.at[1] !== seat).length;
  const lines = [];
  if (s.finished) lines.push(h("p", {class: "ok", id: "finished"}, `All boards are in${s.logged ? ` · logged as game ${s.logged}` : ""}`));
  else {
    if (waiting.length) lines.push(h("p", {}, `Waiting for: ${waiting.join(", ")}`));
    if (others) lines.push(h("p", {}, `${counted(others, "problem")} on the other boards`));
    if (!s.outcome.problems.length && !s.outcome.report) lines.push(h("p", {}, "…"));
    if (!s.outcome.problems.length && s.outcome.report) lines.push(h("p", {class: "ok"}, "Every board checks out"));
  }
  return h("div", {id: "status"}, lines);
}

// ---------------------------------------------------------------- a session: host and player pages

// A page's poll: the session as the server has it, unless this page changed something since
// it asked (the answer may predate that change) or is still saving. A change the server did
// not get while it was away is sent again once a poll finds it back.
function polling(sid, shown, resend) {
  poll = setInterval(async () => {
    if (unsent + sending > 0) return;
    const before = edits;
    try {
      const got = await api("GET", `/api/sessions/${sid}`);
      if (edits === before && unsent + sending === 0) shown(got);
      if ([...pending.values()].some(e => e.failed === "retry")) resend();
    } catch (e) { /* next time */ }
  }, 2000);
}

async function hostPage(sid) {
  let s = await api("GET", `/api/sessions/${sid}`);
  at(`s/${sid}/table`, `/api/sessions/${sid}/table`);
  const err = h("div", {"data-save-error": true});
  const put = () => send(async sent => {
    try { s = await api("PUT", `/api/sessions/${sid}/table`, sent); shown(s); } catch (e) { showError(err, e); throw e; }
  });
  const save = (kind, key, part, value) => { change(kind, key, part, value); return put(); };
  // every field of the table, the optional ones too (a Long Game's earlier wins, a claimed winner): left empty, they stay out of the sheet
  const table = fields(s.form.table, applied(s.table, s.form.table), save, "t");
  const tableBox = h("section", {id: "table"}, h("h2", {}, "The table"), h("div", {class: "problems", "data-for": ""}),
    table.els, h("p", {id: "save-state", class: "help"}));
  const seats = h("section", {}, h("h2", {}, "Boards"), h("p", {class: "help"}, "Each player opens their own board on their phone: scan its code below (or the one pnp serve printed, then pick this game and their name)."),
    s.players.map((name, i) => h("a", {class: "button", href: `#/s/${sid}/p/${i}`, "data-seat": i}, `${name}'s board`)),
    h("details", {}, h("summary", {}, "A code to scan for each board"), h("div", {class: "row"},
      s.players.map((name, i) => h("figure", {class: "qr"}, h("img", {src: `/api/sessions/${sid}/boards/${i}/qr.svg`, alt: `link to ${name}'s board`, width: 148, height: 148}),
        h("figcaption", {}, name))))));
  const live = h("div", {});
  const refresh = () => steady(() => {
    place(tableBox, s.outcome.problems, at => at[0] === "players" ? undefined : at.length ? at[0] : null);
    live.replaceChildren(status(s, -1), results(s),
      h("p", {}, h("a", {class: "button", id: "export", href: `/api/sessions/${sid}/sheet.yaml`}, "Export the sheet (YAML for pnp score)")));
  });
  const shown = got => { s = got; table.sync(s.table); refresh(); };
  app.replaceChildren(h("h1", {}, `${s.title}: ${s.players.join(", ")}`), rulesLine(s), err, tableBox, seats, live);
  showSync();
  refresh();
  polling(sid, shown, put);
}

async function playerPage(sid, seat) {
  let s = await api("GET", `/api/sessions/${sid}`);
  if (!(seat >= 0 && seat < s.players.length)) throw new Error(`no seat ${seat + 1} in this game`);
  at(`s/${sid}/p/${seat}`, `/api/sessions/${sid}/boards/${seat}`);
  const err = h("div", {"data-save-error": true});
  const put = () => send(async sent => {
    try { s = await api("PUT", `/api/sessions/${sid}/boards/${seat}`, sent); shown(s); }
    catch (e) { showError(err, e); throw e; }
  });
  const save = (kind, key, part, value) => { change(kind, key, part, value); return put(); };
  // `done` is sent only when the box is ticked or unticked: a field saved from a page loaded
  // earlier does not take back the board's "complete" ticked on another
  const ticked = [...pending.values()].find(e => e.kind === "done");
  const doneBox = h("input", {type: "checkbox", id: "done", checked: ticked ? ticked.value : s.done[seat], onchange: e => save("done", null, undefined, e.target.checked)});
  const form = fields(s.form.player, applied(s.boards[seat], s.form.player), save, "p");
  const board = h("section", {id: "board"}, h("div", {class: "problems", "data-for": ""}), form.els,
    h("label", {for: "done", class: "row"}, doneBox, "My board is complete"), h("p", {id: "save-state", class: "help"}));
  const live = h("div", {});
  const refresh = () => steady(() => {
    place(board, s.outcome.problems, at => at[0] !== "players" ? null : at.length < 2 ? null : at[1] !== seat ? undefined : at.length > 2 ? at[2] : null);
    live.replaceChildren(status(s, seat), results(s));
  });
  const shown = got => {  // this board as saved, from this page or another (the same board open on two phones)
    s = got;
    form.sync(s.boards[seat]);
    if (!isPending(null)) doneBox.checked = s.done[seat];
    refresh();
  };
  app.replaceChildren(h("h1", {}, `${s.players[seat]}'s board`), rulesLine(s), err, board, live,
    h("p", {}, h("a", {class: "button", href: `#/s/${sid}`}, "The whole table")));
  showSync();
  refresh();
  polling(sid, shown, put);
}

// ---------------------------------------------------------------- statistics

async function statsPage() {
  const stats = await api("GET", "/api/stats");
  // a monster or leader by the name its component prints (`names`), the log keeping its id
  const spread = (title, table, names = {}) => Object.keys(table).length ? [h("h2", {}, title), h("table", {},
    h("tr", {}, ["", "games", "min", "mean", "max"].map(x => h("th", {class: x ? "n" : ""}, x))),
    Object.entries(table).map(([k, v]) => h("tr", {}, h("td", {}, names[k] || k), ["games", "min", "mean", "max"].map(x => h("td", {class: "n"}, v[x])))))] : [];
  const predict = (g, box) => async () => {
    box.replaceChildren(h("p", {}, "Playing 100 games with pnp simulate…"));
    try {
      const p = await api("POST", "/api/predict", {game: g.game, rules: g.rules, changes: g.changes, players: g.players, games: 100});
      box.replaceChildren(h("h2", {}, `pnp simulate predicts (${p.games} games, ${p.strategies.join(", ")} players)`),
        h("p", {class: "prediction"}, "Win rate by seat: ", p.win_rate_by_seat.map((r, i) => `seat ${i + 1}: ${Math.round(r * 100)}%`).join(", ")),
        ...Object.entries(p.mean_score_by).map(([tag, means]) => h("p", {}, `Mean score by ${tag}: `,
          Object.entries(means).map(([k, v]) => `${g.names[k] || k} ${v}`).join(", "))));
    } catch (e) { showError(box, hostWords(e)); }
  };
  const changed = g => Object.entries(g.changes || {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ");
  // when the games were played, a day as the phone says it: what tells the game's content before an edit from after
  // (the content's digest stays in the API and on the section, for a tool)
  const day = t => new Date(t).toLocaleDateString(undefined, {day: "numeric", month: "short", year: "numeric"});
  const played = g => { const [a, b] = g.played.map(day); return a === b ? `played ${a}` : `played ${a} to ${b}`; };
  app.replaceChildren(...[h("h1", {}, "Logged games"), stats.length ? null : h("p", {}, "No game logged yet.")].filter(Boolean),
    ...stats.map(g => {
      const box = h("div", {});
      return h("section", {"data-digest": g.digest}, h("h2", {}, `${g.title || g.game}${g.rules ? `, ${g.rules_title || g.rules}` : ""}, ${counted(g.players, "player")}: ${counted(g.games, "game")}`),
        h("p", {class: "rules"}, `${played(g)}${changed(g) ? ` · rule changes ${changed(g)}` : ""}${g.current ? "" : " · the game has been edited since"}`),
        h("p", {}, "Wins by seat: ", g.wins_by_seat.map((n, i) => `seat ${i + 1}: ${n}`).join(", ")),
        ...spread("Total by monster", g.by_monster, g.names), ...spread("Points by leader", g.by_leader, g.names),
        g.current ? h("p", {}, h("button", {class: "ghost predict", onclick: predict(g, box)}, "What pnp simulate predicts")) : null, box);
    }));
}

route();
