/* A move built on the phone (issue 28): each tap that builds a move (a card, a cell, a side, a
   piece, a caller) shows at once, with no request, and only the finished move is sent, through
   the outbox (static/js/outbox.js). What is legal comes from the referee itself: the page
   carries the engine's options for the position (referee.Game.options), and this script only
   reads them. The server judges every move all the same.

   One script for every game, driven by the markup of each game's move form (as
   static/js/tap-setup.js drives setups). Without a script, the same buttons post the form, and
   the server builds the move tap by tap, as before.

   Markup, inside the [data-builder] element (the move form):
   - script#play-options: the options (JSON). data-base on [data-builder]: the fields every
     move starts with, each a path into the options ({"player": "player"}: options.player),
     given back from them when a data-clear takes them. "*" in a path goes through each item
     of a list ("dealers.*.dealer": every dealer offered); a base field from such a path is its
     one item, or chosen by hand when it holds several.
   - [data-set="path"] buttons: a tap sets the move's field at ``path`` (dots nest: "call.player")
     to data-value (JSON; with data-string, the text as written). [data-toggle="path"]: adds the value to the list at
     ``path``, or takes it back. [data-clear="path path"]: takes fields back ("Change the card").
   - data-offered="path" on a button: it is offered only if the options at ``path`` hold its
     value (a list holding it, or an object with it as a key; null holds anything). ``{field}``
     in a path is the move's field so far ("cards.{card}": the cells of the card chosen).
     data-offered-value="{field}": what to look for there, instead of the button's value.
   - data-when="field !field": shown only while the move has (or, with "!", has not) each field;
     "past": while moves wait in the outbox, so that the options describe a position the play
     is past: then every button is offered (the server judges), and the base fields are chosen
     by buttons of their own (data-set="player", shown data-when="past").
   - data-players='["Ana", "Chloé"]': shown only while the move's player is one of these (a
     Punto colour is played by its owners: while moves wait, whoever is chosen).
   - [data-show="field"]: shows the label (data-label) of the button that set the field, or
     data-empty while it is not set.
   - [data-show-option="path"]: shows the options' value at ``path`` (with {field}s), or
     data-null where it is null; hidden while the path leads nowhere (where a 3-High piece
     would land, for the card and side chosen).
   - data-complete on [data-builder]: the fields of a finished move, one set per alternative
     ("card at|card blocked"): the move is sent as soon as one is complete. A
     [data-finish="card tie"] button sends a move of those fields when pressed (a list among
     them holding at least data-finish-min items), and is offered only then.
   - data-needs="field" on a button: offered only once the move has each field (the series
     called, once the caller is chosen).
   - data-unset="path" on a button: the fields it takes back when tapped (a call takes back a
     tie begun, and the other way round).
   - Radio buttons and checkboxes may set and toggle too: they keep their own ticking.
   - data-label on a button: how its choice reads (its text otherwise); the outbox shows a
     move as its choices in order ("red 7 · C4").
   - data-hide-unoffered on a button: hidden, not only disabled, while it is not offered.
   - .builder-fallback elements are hidden once the script works (the server's own steps).
   - data-post on [data-builder]: the finished move is posted by the move form itself, its
     answer a page, instead of going through the outbox (a correction of a past move).

   A turn of several players (Thricewise: a card revealed per player, then groups of cards
   placed in the order of their ranks, each on a cell next to the cards):
   - data-slots="field" on a list: the field is an object with a key per [data-slot="key"] in
     it, in order (keys are whole attribute values, never paths: a player's name). A
     [data-push="field"] button puts its value in the first empty slot, or takes it back out
     of its slot (the button has data-slotted, the slot's key; a filled slot data-holds, its
     value). The field counts as there (data-when, data-finish) once every slot is filled.
     [data-slot-clear="field"] empties the slot of the key around it; [data-slot-face="field"]
     shows the face of that slot's value.
   - data-groups="list" with data-order="field" (a slots field), data-rank="path" (the rank of
     each value, in the options) and data-item="group value cell" (an item's fields): the list
     is filled item by item, group by group. The groups are the slots' keys in ascending rank
     of their value, those whose rank another shares left out. A group holds its key's value
     (required, once) and any of its [data-choose="list"][data-key="key"] buttons' values (once
     each). The group adding is that of the last item, or the next once it has nothing left;
     it is offered its values left, and once its required value is in, the next group's (which
     closes it). Ready unless another is tapped: its required value, else the next group's,
     else its first left. A [data-choose] with data-required stands for its key's value. The
     list counts as there once every group holds its required value; the [data-groups]
     element is hidden while no group adds. Changing the slots empties the list.
   - data-add="list" on an area of cells (buttons [data-at="x,y"], data-label "C4"): a tap on
     one adds the item {group, value, cell [x, y]}. A cell holding an item gets data-holds (the
     value), shows the value's face (aria-hidden) and is named "C4: value" by hidden words; an
     empty one is named by the
     area's data-name ("{label}": its data-label).
   - data-adjacent="path path" on the area: a cell is offered only where free, touching
     (diagonals too) a cell of those lists (the move's, else the options': cells, or items with
     one at "at"), and within data-span (a path into the options) columns and rows with all of
     them. Only the rows and columns of those cells and the ones offered are shown ([data-at],
     labels [data-x], [data-y]; --columns and --rows on the area say how many).
   - Each [data-slot] and [data-key="key"] element gets data-state: "next" (the slot to fill
     next, also aria-current="step"), "filled", "empty"; once the groups are known, "current",
     "done", "waiting" or "out". With data-state-when="state …" an element shows only while the
     key around it is in one of those states.
   - A value's face: a copy of the content of the [data-face] element in a button of that
     value.

   For a move laid out in several lists (Forget Venice's deal: 7 cards in 3 piles, then who took
   which pile):
   - ``{field}`` in a data-set or data-toggle path is the move's field when tapped
     ("piles.{_pile}": the pile the cards go into now).
   - A field whose name starts with "_" only guides the taps: it is never sent, nor shown in
     the outbox ("_pile").
   - data-start='{"field": value}' on an element: values the move holds whenever the field is
     unset, at the start and after a data-clear (pile 1 takes the cards).
   - [data-list="path"]: holds the [data-toggle] buttons whose value the list at ``path`` holds,
     moved in, in the list's order (and back to their place once taken out): the pile as it
     fills. A tap on a button it holds takes the value out of that list.
   - In data-when and data-needs, "field#N": the move's field holds exactly N items (a list's
     lists counted item by item), N a number or a path into the options ("piles#cards_per_deal");
     "!" negates it too. data-when="a b|c": shown while one of the alternatives holds.
   - data-when-value='{"field": value, "!field": value}': shown only while each field has (or,
     with "!", has not) that value (a chooser's name, once the dealer is known).
   - [data-count="path"]: shows how many items the move holds at ``path`` (as "#" counts). */
(() => {
  "use strict";

  const parse = (text) => {
    try {
      return JSON.parse(text);
    } catch (error) {
      return text;
    }
  };
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  // data-string: the value as written (a player's name may look like a number); else JSON.
  const valueOf = (button) =>
    button.hasAttribute("data-string") ? button.dataset.value : parse(button.dataset.value);

  function get(object, path) {
    let here = object;
    const parts = path.split(".");
    for (const [at, part] of parts.entries()) {
      if (part === "*") {
        // Through each item of a list ("dealers.*.dealer": every dealer offered).
        if (!Array.isArray(here)) return undefined;
        const rest = parts.slice(at + 1).join(".");
        return here.map((item) => (rest ? get(item, rest) : item));
      }
      if (here === null || typeof here !== "object" || !(part in here)) return undefined;
      here = here[part];
    }
    return here;
  }

  function put(object, path, value) {
    const parts = path.split(".");
    let here = object;
    for (const part of parts.slice(0, -1)) {
      if (here[part] === null || typeof here[part] !== "object") here[part] = {};
      here = here[part];
    }
    if (value === undefined) delete here[parts[parts.length - 1]];
    else here[parts[parts.length - 1]] = value;
  }

  function fill(path, move) {
    // "{card}" → the move's card, as an options key ("red-7", or "0,1" for a cell).
    return path.replace(/\{([^}]+)\}/g, (_all, field) => {
      const value = get(move, field);
      return Array.isArray(value) ? value.join(",") : String(value);
    });
  }

  // How many items a value holds: a list's lists are counted item by item (a deal's 7 cards).
  function count(value) {
    if (value === undefined) return 0;
    if (!Array.isArray(value)) return 1;
    return value.reduce((sum, item) => sum + (Array.isArray(item) ? count(item) : 1), 0);
  }

  function holds(found, value) {
    if (found === null) return true;
    if (Array.isArray(found)) return found.some((item) => same(item, value));
    if (found && typeof found === "object") return Object.prototype.hasOwnProperty.call(found, String(value));
    return false;
  }

  // The move being built outlives a swap of the page (a refresh after a change elsewhere, or
  // an answer of the outbox), a reload and a closed tab (localStorage), if the position it was
  // built on still stands.
  let kept = null; // {position, move, labels}

  function stored(root) {
    return `building:${root.dataset.url}`;
  }

  function position() {
    const main = document.getElementById("play-main");
    return main ? main.dataset.position : "";
  }

  function init(root) {
    const optionsNode = root.querySelector("script#play-options");
    const options = optionsNode ? JSON.parse(optionsNode.textContent) : null;
    const base = root.dataset.base ? parse(root.dataset.base) : {};
    // Moves waiting in the outbox put the play past the position these options describe:
    // the move is then built without hints (anything offered, the server judges), and the base
    // fields are chosen by hand ([data-when="past"] shows their buttons: who plays).
    // A refused move put right where the queue stopped at it (``replacing``, its key) is built
    // on the play as it stands: these options describe it.
    let replacing = null;
    const correcting = () =>
      Boolean(replacing && window.playOutbox && window.playOutbox.stoppedAt() === replacing);
    const past = () =>
      Boolean(window.playOutbox && window.playOutbox.waiting() > 0) && !correcting();
    const fromOptions = () => options && !past();
    // The slots and groups fields (see "A turn of several players" above), read once.
    const slotKeys = {}; // a slots field → its keys, in order
    for (const list of root.querySelectorAll("[data-slots]")) {
      slotKeys[list.dataset.slots] = [...list.querySelectorAll("[data-slot]")].map(
        (node) => node.dataset.slot,
      );
    }
    const groupSpecs = {}; // a groups field → its [data-groups] element
    for (const node of root.querySelectorAll("[data-groups]")) {
      groupSpecs[node.dataset.groups] = node;
    }
    // A base field from a path through a list (*) is its one item, or chosen by hand when the
    // list holds several (the players tied for the deal).
    const based = (from) => {
      const value = fromOptions() ? get(options, from) : undefined;
      if (!from.split(".").includes("*")) return value;
      return Array.isArray(value) && value.length === 1 ? value[0] : undefined;
    };
    const start = () => {
      const move = {};
      for (const [field, from] of Object.entries(base)) put(move, field, based(from));
      for (const field of Object.keys(slotKeys)) put(move, field, {});
      for (const field of Object.keys(groupSpecs)) put(move, field, []);
      return move;
    };
    let move = start();
    const labels = {};
    if (!kept) {
      try {
        kept = JSON.parse(localStorage.getItem(stored(root)) || "null");
      } catch (error) {
        kept = null;
      }
    }
    // The position this form was drawn for: a form still on the page while the answer that
    // replaces it is put in place piece by piece (static/js/play-parts.js) keeps its move for
    // its own position, not for the new one.
    const builtOn = position();
    if (kept && kept.position === builtOn) {
      move = kept.move;
      Object.assign(labels, kept.labels);
      replacing = kept.replacing || null;
    }
    kept = null;
    const keep = () => {
      kept = Object.keys(labels).length ? { position: builtOn, move, labels, replacing } : null;
      if (kept) localStorage.setItem(stored(root), JSON.stringify(kept));
      else localStorage.removeItem(stored(root));
    };
    const alternatives = (root.dataset.complete || "")
      .split("|")
      .map((set) => set.trim().split(/\s+/).filter(Boolean))
      .filter((set) => set.length);

    const has = (field) => {
      if (slotKeys[field]) return slotsFull(field);
      if (groupSpecs[field]) return Boolean(groupsOf(field) && groupsOf(field).complete);
      const value = get(move, field);
      return value !== undefined && !(Array.isArray(value) && value.length === 0);
    };
    // "field", "!field", "field#N" (exactly N items, N a number or a path into the options);
    // "past": moves wait in the outbox.
    const meets = (cond) => {
      const negated = cond.startsWith("!");
      const [field, wanted] = (negated ? cond.slice(1) : cond).split("#");
      let met = field === "past" ? past() : has(field);
      if (wanted !== undefined) {
        const number = /^\d+$/.test(wanted) ? Number(wanted) : options && get(options, wanted);
        met = count(get(move, field)) === number;
      }
      return negated ? !met : met;
    };
    const finished = () =>
      Object.keys(base).every(has) && alternatives.some((set) => set.every(has));
    const finishable = (button) => {
      const fields = button.dataset.finish.split(/\s+/).filter(Boolean);
      const least = parseInt(button.dataset.finishMin || "1", 10);
      return Object.keys(base).every(has) && fields.every((field) => {
        const value = get(move, field);
        return has(field) && (!Array.isArray(value) || value.length >= least);
      });
    };
    const valued = (node) =>
      Object.entries(node.dataset.whenValue ? parse(node.dataset.whenValue) : {}).every(
        ([field, value]) =>
          field.startsWith("!") ? !same(get(move, field.slice(1)), value) : same(get(move, field), value),
      );
    const shown = (node) =>
      (node.dataset.when || "")
        .split("|")
        .some((set) => set.split(/\s+/).filter(Boolean).every(meets)) && valued(node);

    // The values every move holds whenever they are unset (data-start), and the base fields a
    // data-clear took back, from the options again.
    function started() {
      for (const [field, from] of Object.entries(base)) {
        if (!has(field)) put(move, field, based(from));
      }
      for (const node of root.querySelectorAll("[data-start]")) {
        for (const [field, value] of Object.entries(parse(node.dataset.start))) {
          if (get(move, field) === undefined) put(move, field, value);
        }
      }
    }

    // Each [data-list] holds the buttons of the values its list holds, in order; the others
    // go back to their place (a comment left where each stood). Which list holds each button.
    const lists = [...root.querySelectorAll("[data-list]")];
    const toggles = lists.length ? [...root.querySelectorAll("[data-toggle]")] : [];
    const homes = new Map();
    for (const button of toggles) {
      const home = document.createComment("");
      button.before(home);
      homes.set(button, home);
    }
    let held = new Map();
    function place() {
      held = new Map();
      for (const list of lists) {
        const items = get(move, list.dataset.list);
        let at = 0;
        for (const item of Array.isArray(items) ? items : []) {
          const button = toggles.find((b) => !held.has(b) && same(valueOf(b), item));
          if (!button) continue;
          held.set(button, list.dataset.list);
          if (list.children[at] !== button) list.insertBefore(button, list.children[at] || null);
          at += 1;
        }
      }
      for (const [button, home] of homes) {
        if (!held.has(button) && home.nextSibling !== button) home.after(button);
      }
    }

    function offered(button) {
      if (!button.dataset.offered || !fromOptions()) return true; // no hints: anything goes
      const found = get(options, fill(button.dataset.offered, move));
      const wanted = button.dataset.offeredValue
        ? get(move, button.dataset.offeredValue.slice(1, -1))
        : valueOf(button);
      return found !== undefined && holds(found, wanted);
    }

    // --- A turn of several players (see the header): slots, groups, an area of cells --------

    const picks = {}; // a groups field → the [key, value] tapped among its choices
    // What was tapped, said and picked, forgotten: another move comes into the builder.
    const forgetTaps = () => {
      for (const field of Object.keys(labels)) delete labels[field];
      for (const field of Object.keys(picks)) delete picks[field];
    };
    const originals = new WeakMap(); // a node showing a face → its own content
    const faceShown = new WeakMap(); // … and the value whose face it shows

    function keyOf(node) {
      const holder = node.closest("[data-slot], [data-key]");
      return holder ? (holder.dataset.slot ?? holder.dataset.key) : undefined;
    }

    function slotsFull(field) {
      const values = get(move, field) || {};
      return slotKeys[field].every((key) => values[key] !== undefined);
    }

    function inSlots(field, values) {
      // The object in the slots' order, whatever order they were filled in.
      const object = {};
      for (const key of slotKeys[field]) if (values[key] !== undefined) object[key] = values[key];
      put(move, field, object);
      // The groups follow from these slots: what was added to them is dropped.
      for (const [list, spec] of Object.entries(groupSpecs)) {
        if (spec.dataset.order === field) forget(list);
      }
    }

    function itemFields(field) {
      return (groupSpecs[field].dataset.item || "").split(/\s+/); // [group, value, cell]
    }

    function choiceValue(button) {
      const spec = groupSpecs[button.dataset.choose];
      if (!button.hasAttribute("data-required")) return valueOf(button);
      if (!spec) return undefined;
      const order = spec.dataset.order;
      return (get(move, order) || {})[button.dataset.key];
    }

    function groupsOf(field) {
      // Null until the slots it follows are full. Then its groups: the slots in ascending rank
      // of their value (a rank two slots share leaves both out), what each may still add, who
      // adds now, what is offered and ready, and whether every group has its required value.
      const spec = groupSpecs[field];
      const order = spec.dataset.order;
      if (!slotsFull(order)) return null;
      const values = get(move, order);
      const ranks = (options && get(options, spec.dataset.rank || "")) || {};
      const rank = (key) => ranks[String(values[key])];
      const count = {};
      for (const key of slotKeys[order]) count[rank(key)] = (count[rank(key)] || 0) + 1;
      const keys = slotKeys[order]
        .filter((key) => count[rank(key)] === 1)
        .sort((a, b) => rank(a) - rank(b));
      const [by, what] = itemFields(field);
      const items = get(move, field) || [];
      const choices = [...root.querySelectorAll("[data-choose]")].filter(
        (button) => button.dataset.choose === field && !button.hasAttribute("data-required"),
      );
      const placed = (key) => items.filter((item) => item[by] === key).map((item) => item[what]);
      const done = (key) => placed(key).some((value) => same(value, values[key]));
      const left = (key) =>
        [values[key], ...choices.filter((b) => b.dataset.key === key).map(valueOf)].filter(
          (value) => !placed(key).some((item) => same(item, value)),
        );
      const last = items.length ? items[items.length - 1][by] : undefined;
      let at = last === undefined ? 0 : Math.max(keys.indexOf(last), 0);
      if (last !== undefined && !left(last).length) at += 1;
      const current = keys[at];
      const following = keys[at + 1];
      const offered = [];
      let ready = null;
      if (current !== undefined) {
        for (const value of left(current)) offered.push([current, value]);
        if (following !== undefined && done(current)) offered.push([following, values[following]]);
        if (!done(current)) ready = [current, values[current]];
        else if (following !== undefined) ready = [following, values[following]];
        else if (left(current).length) ready = [current, left(current)[0]];
      }
      const states = {};
      for (const key of slotKeys[order]) states[key] = "out";
      keys.forEach((key, index) => {
        states[key] = index < at ? "done" : index === at ? "current" : "waiting";
      });
      return { offered, ready, states, complete: keys.every(done) };
    }

    function chosenIn(field, groups) {
      // The value tapped among the choices while it is offered, else the one ready.
      const pick = picks[field];
      const still = pick && groups.offered.some(([k, v]) => k === pick[0] && same(v, pick[1]));
      return still ? pick : groups.ready;
    }

    function faceOf(value) {
      // A copy of how a value looks: the [data-face] of a button of that value.
      for (const face of root.querySelectorAll("[data-face]")) {
        const owner = face.closest("[data-value]");
        if (owner && same(valueOf(owner), value)) {
          return [...face.childNodes].map((node) => node.cloneNode(true));
        }
      }
      return null;
    }

    function showFace(node, value, spoken) {
      // With ``spoken``, the face is hidden from a screen reader and the node named by those
      // words, visually hidden.
      if (!originals.has(node)) originals.set(node, [...node.childNodes]);
      if (faceShown.has(node) && same(faceShown.get(node), value)) return;
      faceShown.set(node, value);
      const face = value === undefined ? null : faceOf(value);
      if (face && spoken) {
        const words = document.createElement("span");
        words.className = "sr-only";
        words.textContent = spoken;
        // each part hidden, not a wrapper: the node's layout stays that of the face's parts
        const parts = face.map((part) => {
          if (part.nodeType !== Node.TEXT_NODE || !part.textContent.trim()) return part;
          const span = document.createElement("span");
          span.append(part);
          return span;
        });
        for (const part of parts) {
          if (part.nodeType === Node.ELEMENT_NODE) part.setAttribute("aria-hidden", "true");
        }
        node.replaceChildren(words, ...parts);
      } else {
        node.replaceChildren(...(face || originals.get(node)));
      }
    }

    function mark(button, chosen, available) {
      button.disabled = !available;
      if (button.hasAttribute("data-hide-unoffered")) button.hidden = !available;
      button.classList.toggle("chosen", chosen);
      button.setAttribute("aria-pressed", chosen ? "true" : "false");
    }

    function cellOf(node) {
      return node.dataset.at.split(",").map(Number); // "x,y" → [x, y]
    }

    function areaOf(node) {
      // The cells taken (the lists of data-adjacent, in the move or else the options: cells,
      // or items with their cell at "at"), and the rule for a new one: free, touching a taken
      // cell (diagonals too), and all of them within data-span columns and rows.
      if (!node.dataset.adjacent) return { allows: () => true, fit() {} };
      const taken = [];
      for (const path of node.dataset.adjacent.split(/\s+/).filter(Boolean)) {
        let list = get(move, path);
        if (list === undefined && options) list = get(options, path);
        for (const item of Array.isArray(list) ? list : []) {
          const cell = Array.isArray(item) ? item : item && item.at;
          if (Array.isArray(cell)) taken.push(cell);
        }
      }
      const span = Number(options && get(options, node.dataset.span || "")) || Infinity;
      const near = new Set(taken.map(String));
      const xs = taken.map((cell) => cell[0]);
      const ys = taken.map((cell) => cell[1]);
      const offeredCells = [];
      return {
        allows(cell) {
          const [x, y] = cell;
          const touches = [-1, 0, 1].some((dx) =>
            [-1, 0, 1].some((dy) => (dx || dy) && near.has(String([x + dx, y + dy]))),
          );
          const fits =
            Math.max(x, ...xs) - Math.min(x, ...xs) < span &&
            Math.max(y, ...ys) - Math.min(y, ...ys) < span;
          const ok = !near.has(String(cell)) && touches && fits;
          if (ok) offeredCells.push(cell);
          return ok;
        },
        fit() {
          // Only the rows and columns of the cards and the cells offered are shown.
          const cells = [...taken, ...offeredCells];
          if (!cells.length) return;
          const x0 = Math.min(...cells.map((c) => c[0]));
          const x1 = Math.max(...cells.map((c) => c[0]));
          const y0 = Math.min(...cells.map((c) => c[1]));
          const y1 = Math.max(...cells.map((c) => c[1]));
          const outside = (value, low, high) => value < low || value > high;
          for (const cell of node.querySelectorAll("[data-at]")) {
            const [x, y] = cellOf(cell);
            cell.hidden = outside(x, x0, x1) || outside(y, y0, y1);
          }
          for (const label of node.querySelectorAll("[data-x]")) {
            label.hidden = outside(Number(label.dataset.x), x0, x1);
          }
          for (const label of node.querySelectorAll("[data-y]")) {
            label.hidden = outside(Number(label.dataset.y), y0, y1);
          }
          node.style.setProperty("--columns", String(x1 - x0 + 1));
          node.style.setProperty("--rows", String(y1 - y0 + 1));
        },
      };
    }

    function drawTurn() {
      const states = {};
      for (const [field, keys] of Object.entries(slotKeys)) {
        const values = get(move, field) || {};
        const next = keys.find((key) => values[key] === undefined);
        for (const key of keys) {
          states[key] = key === next ? "next" : values[key] === undefined ? "empty" : "filled";
        }
      }
      const now = {};
      for (const field of Object.keys(groupSpecs)) {
        now[field] = groupsOf(field);
        if (now[field]) Object.assign(states, now[field].states);
      }
      for (const node of root.querySelectorAll("[data-slot], [data-key]")) {
        node.dataset.state = states[node.dataset.slot ?? node.dataset.key] || "";
      }
      for (const list of root.querySelectorAll("[data-slots]")) {
        const values = get(move, list.dataset.slots) || {};
        for (const slot of list.querySelectorAll("[data-slot]")) {
          const value = values[slot.dataset.slot];
          if (value === undefined) delete slot.dataset.holds;
          else slot.dataset.holds = String(value);
          if (slot.dataset.state === "next") slot.setAttribute("aria-current", "step");
          else slot.removeAttribute("aria-current");
        }
      }
      for (const node of root.querySelectorAll("[data-state-when]")) {
        node.hidden = !node.dataset.stateWhen.split(/\s+/).includes(states[keyOf(node)] || "");
      }
      for (const [field, spec] of Object.entries(groupSpecs)) {
        spec.hidden = !(now[field] && now[field].ready); // nobody adds (yet, or any more)
      }
      for (const button of root.querySelectorAll("[data-push]")) {
        const keys = slotKeys[button.dataset.push] || [];
        const values = get(move, button.dataset.push) || {};
        const key = keys.find((k) => same(values[k], valueOf(button)));
        const free = keys.some((k) => values[k] === undefined);
        mark(button, key !== undefined, key !== undefined || (free && offered(button)));
        if (key !== undefined) button.dataset.slotted = key;
        else delete button.dataset.slotted;
      }
      for (const node of root.querySelectorAll("[data-slot-face]")) {
        showFace(node, (get(move, node.dataset.slotFace) || {})[keyOf(node)]);
      }
      for (const button of root.querySelectorAll("[data-choose]")) {
        const groups = now[button.dataset.choose];
        const value = choiceValue(button);
        const pick = groups && chosenIn(button.dataset.choose, groups);
        const key = button.dataset.key;
        const isIt = ([k, v]) => k === key && same(v, value);
        mark(button, Boolean(pick && isIt(pick)), Boolean(groups && groups.offered.some(isIt)));
      }
      for (const node of root.querySelectorAll("[data-add]")) {
        const field = node.dataset.add;
        if (!groupSpecs[field]) continue;
        const area = areaOf(node);
        const [, what, where] = itemFields(field);
        const items = get(move, field) || [];
        const adding = Boolean(now[field] && chosenIn(field, now[field]));
        for (const cell of node.querySelectorAll("button[data-at]")) {
          const at = cellOf(cell);
          const item = items.find((it) => same(it[where], at));
          cell.disabled = !(!item && adding && area.allows(at));
          // A cell holding an item shows its value's face, and is named by it ("C4: The Sailor").
          if (item) cell.dataset.holds = String(item[what]);
          else delete cell.dataset.holds;
          const label = cell.dataset.label || "";
          const name = (node.dataset.name || "").replace("{label}", label);
          if (item) {
            // Named by hidden words, the face it shows hidden from a screen reader: the face's
            // words (a rank, a short name) are then no other name than the one given (WCAG 2.5.3).
            showFace(cell, item[what], `${label}: ${item[what]}`);
            cell.removeAttribute("aria-label");
          } else {
            showFace(cell, undefined);
            if (name) cell.setAttribute("aria-label", name);
          }
        }
        area.fit();
      }
    }

    function labelOf(button) {
      return button.dataset.label || button.textContent.trim();
    }

    function tapTurn(button) {
      // A tap on a slot's value, a "take back", a choice or a cell: true when it was one.
      if (button.dataset.push) {
        const field = button.dataset.push;
        const values = { ...(get(move, field) || {}) };
        const value = valueOf(button);
        const key = slotKeys[field].find((k) => same(values[k], value));
        const free = slotKeys[field].find((k) => values[k] === undefined);
        if (key !== undefined) {
          delete values[key];
          delete labels[`${field}.${key}`];
        } else if (free !== undefined) {
          values[free] = value;
          labels[`${field}.${free}`] = labelOf(button);
        }
        inSlots(field, values);
      } else if (button.dataset.slotClear) {
        const field = button.dataset.slotClear;
        const values = { ...(get(move, field) || {}) };
        delete values[keyOf(button)];
        delete labels[`${field}.${keyOf(button)}`];
        inSlots(field, values);
      } else if (button.dataset.choose) {
        picks[button.dataset.choose] = [button.dataset.key, choiceValue(button)];
      } else if (button.matches("[data-add] button[data-at]")) {
        const field = button.closest("[data-add]").dataset.add;
        const groups = groupSpecs[field] && groupsOf(field);
        const pick = groups && chosenIn(field, groups);
        if (!pick) return true;
        const [by, what, where] = itemFields(field);
        const items = get(move, field);
        items.push({ [by]: pick[0], [what]: pick[1], [where]: cellOf(button) });
        // How it reads in the outbox: the card's label (a required one, its slot's), the cell's.
        const order = groupSpecs[field].dataset.order;
        const choice = [...root.querySelectorAll("[data-choose]")].find(
          (b) =>
            b.dataset.choose === field &&
            b.dataset.key === pick[0] &&
            !b.hasAttribute("data-required") &&
            same(choiceValue(b), pick[1]),
        );
        const said = choice ? labelOf(choice) : labels[`${order}.${pick[0]}`];
        labels[`${field}.${items.length - 1}`] = [said, labelOf(button)].filter(Boolean).join(" ");
        delete picks[field];
      } else {
        return false;
      }
      return true;
    }

    function draw() {
      started();
      place();
      for (const node of root.querySelectorAll("[data-when], [data-when-value]")) {
        node.hidden = !shown(node);
      }
      for (const node of root.querySelectorAll("[data-players]")) {
        const whose = JSON.parse(node.dataset.players).includes(get(move, "player"));
        node.hidden = !whose || (node.hasAttribute("data-when") && !shown(node));
      }
      for (const button of root.querySelectorAll("[data-set], [data-toggle]")) {
        const path = fill(button.dataset.set || button.dataset.toggle, move);
        const value = valueOf(button);
        const current = get(move, path);
        const chosen = button.dataset.toggle
          ? held.has(button) || (Array.isArray(current) && current.some((item) => same(item, value)))
          : current !== undefined && same(current, value);
        const needs = (button.dataset.needs || "").split(/\s+/).filter(Boolean);
        const available = chosen || (needs.every(meets) && offered(button));
        button.disabled = !available;
        if (button.hasAttribute("data-hide-unoffered")) button.hidden = !available || !shown(button);
        button.classList.toggle("chosen", chosen);
        if (button.tagName === "INPUT") button.checked = chosen;
        // a cell of a grid (Punto's table) is selected; aria-pressed is for plain buttons
        else if (button.getAttribute("role") === "gridcell") {
          button.setAttribute("aria-selected", chosen ? "true" : "false");
        } else button.setAttribute("aria-pressed", chosen ? "true" : "false");
      }
      for (const button of root.querySelectorAll("[data-finish]")) button.disabled = !finishable(button);
      for (const node of root.querySelectorAll("[data-show]")) {
        node.textContent = labels[node.dataset.show] || node.dataset.empty || "";
      }
      for (const node of root.querySelectorAll("[data-show-option]")) {
        const path = node.dataset.showOption;
        const fields = [...path.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]);
        const found = fields.every(has) && options ? get(options, fill(path, move)) : undefined;
        node.hidden = found === undefined;
        node.textContent = found === null ? node.dataset.null || "" : found === undefined ? "" : String(found);
      }
      for (const node of root.querySelectorAll("[data-count]")) {
        node.textContent = String(count(get(move, node.dataset.count)));
      }
      drawTurn();
      root.dataset.building = Object.keys(labels).length ? "1" : "";
      keep();
    }

    function forget(field) {
      put(move, field, slotKeys[field] ? {} : groupSpecs[field] ? [] : undefined);
      delete picks[field];
      for (const key of Object.keys(labels)) {
        if (key === field || key.startsWith(field + ".")) delete labels[key];
      }
    }

    function send() {
      // How it reads in the outbox: what each tap chose, in order ("red 7 · C4"); "_" fields
      // only guided the taps.
      const mine = ([field]) => !field.startsWith("_");
      const label = Object.entries(labels).filter(mine).map(([, text]) => text).join(" · ");
      const sent = Object.fromEntries(Object.entries(move).filter(mine));
      const fields = [
        ["json", "1"],
        ["move_json", JSON.stringify(sent)],
      ];
      if (root.hasAttribute("data-post")) {
        // A correction of a past move (issue 30) is posted as its form, not through the
        // outbox: its answer is a whole page (the play, or why a later move breaks).
        const form = root.querySelector("form.move-form");
        for (const [name, value] of fields) {
          const input = document.createElement("input");
          Object.assign(input, { type: "hidden", name, value });
          form.append(input);
        }
        localStorage.removeItem(stored(root));
        form.submit();
        return;
      }
      // The move as built goes with it: refused, it comes back here to be put right.
      const built = JSON.parse(JSON.stringify({ move, labels }));
      const puts = correcting() ? replacing : null; // a refused move put right takes its place
      replacing = null;
      window.playOutbox.send(root.dataset.url, fields, label, "", built, puts);
      move = start();
      for (const field of Object.keys(labels)) delete labels[field];
      draw();
    }

    root.addEventListener("click", (event) => {
      const button = event.target.closest(
        "[data-set], [data-toggle], [data-clear], [data-finish], " +
          "[data-push], [data-slot-clear], [data-choose], [data-add] button[data-at]",
      );
      if (!button || !root.contains(button)) return;
      // The form's own step (without a script) is not posted; a radio or a box is ticked.
      if (button.tagName !== "INPUT") event.preventDefault();
      if (button.hasAttribute("data-finish")) {
        if (finishable(button)) send();
        return;
      }
      for (const field of (button.dataset.unset || "").split(/\s+/).filter(Boolean)) forget(field);
      if (tapTurn(button)) {
        draw();
        if (finished()) send();
        return;
      }
      if (button.dataset.clear) {
        for (const field of button.dataset.clear.split(/\s+/)) forget(field);
        draw();
        return;
      }
      // A button a [data-list] holds is taken out of that list.
      const path = held.get(button) || fill(button.dataset.set || button.dataset.toggle, move);
      const value = valueOf(button);
      if (button.dataset.toggle) {
        const list = Array.isArray(get(move, path)) ? get(move, path) : [];
        const at = list.findIndex((item) => same(item, value));
        if (at >= 0) list.splice(at, 1);
        else list.push(value);
        put(move, path, list);
        labels[path] = list.join(", ");
        if (!list.length) delete labels[path];
      } else {
        put(move, path, value);
        labels[path] = button.dataset.label || button.textContent.trim();
      }
      draw();
      if (finished()) send();
    });

    // The outbox sent or took a move: the options describe the play again, or no longer.
    document.addEventListener("outbox:changed", () => {
      if (!root.isConnected) return;
      if (replacing && !correcting()) {
        // The refused move being put right was sent again as it was, or dropped: what it was
        // is not built here any more (dropped, it comes back as a move of its own).
        replacing = null;
        move = start();
        forgetTaps();
      }
      if (fromOptions()) {
        for (const [field, from] of Object.entries(base)) {
          if (!has(field)) put(move, field, based(from));
        }
      }
      draw();
    });

    // A move of this phone the referee refused comes back, tap for tap, to be put right
    // (static/js/outbox.js): the refusal is said next to it.
    // Where the queue stopped at it, the move put right takes its place (``replacing``); it is
    // built from the options, which describe the play it comes to, and so takes from them the
    // fields every move starts with (whose turn it is: the refusal may be that it was not).
    document.addEventListener("outbox:putback", (event) => {
      if (!root.isConnected) return;
      move = event.detail.move;
      replacing = event.detail.replacing || null;
      forgetTaps();
      Object.assign(labels, event.detail.labels);
      if (fromOptions()) {
        for (const [field, from] of Object.entries(base)) {
          const value = based(from);
          if (value !== undefined && !same(get(move, field), value)) {
            put(move, field, value);
            delete labels[field];
          }
        }
      }
      draw();
    });

    for (const fallback of root.querySelectorAll(".builder-fallback")) fallback.hidden = true;
    root.classList.add("builder-on");
    drawn.set(root, draw);
    draw();
  }

  const drawn = new WeakMap(); // each form's draw

  function initAll() {
    for (const root of document.querySelectorAll("[data-builder]")) {
      if (!root.classList.contains("builder-on")) init(root);
    }
  }

  // Each answer swaps in a new form, with the options of the new position: taken over as it is
  // swapped in, since htmx only sets up the new form as it settles (20 ms later: a quick tap
  // in between would post the form itself). Drawn again once settled, which puts back the
  // classes of the elements the old page had too.
  document.addEventListener("htmx:afterSwap", initAll);
  document.addEventListener("htmx:afterSettle", () => {
    initAll();
    for (const root of document.querySelectorAll("[data-builder].builder-on")) {
      const draw = drawn.get(root);
      if (draw) draw();
    }
  });
  // The live refresh says which position a half-built move stands on (games.views.play_live):
  // the server keeps the page as it is if that position stands, or says why the move is gone.
  document.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt && event.detail.elt.id === "play-live" && kept) {
      event.detail.parameters.drafting = kept.position;
    }
  });
  // Whether a move is half-built: the parts a stream pushes are not put in place meanwhile
  // (static/js/live-catchup.js), the live refresh says whether it still stands.
  window.moveBuilder = { building: () => kept !== null };
  initAll();
})();
