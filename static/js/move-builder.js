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
     move starts with, each a path into the options ({"player": "player"}: options.player).
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
   - .builder-fallback elements are hidden once the script works (the server's own steps). */
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
    for (const part of path.split(".")) {
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
    const past = () => Boolean(window.playOutbox && window.playOutbox.waiting() > 0);
    const fromOptions = () => options && !past();
    const start = () => {
      const move = {};
      for (const [field, from] of Object.entries(base)) {
        put(move, field, fromOptions() ? get(options, from) : undefined);
      }
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
    if (kept && kept.position === position()) {
      move = kept.move;
      Object.assign(labels, kept.labels);
    }
    kept = null;
    const keep = () => {
      kept = Object.keys(labels).length ? { position: position(), move, labels } : null;
      if (kept) localStorage.setItem(stored(root), JSON.stringify(kept));
      else localStorage.removeItem(stored(root));
    };
    const alternatives = (root.dataset.complete || "")
      .split("|")
      .map((set) => set.trim().split(/\s+/).filter(Boolean))
      .filter((set) => set.length);

    const has = (field) => {
      const value = get(move, field);
      return value !== undefined && !(Array.isArray(value) && value.length === 0);
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
    const shown = (node) =>
      (node.dataset.when || "")
        .split(/\s+/)
        .filter(Boolean)
        .every((cond) => {
          const not = cond.startsWith("!");
          const field = not ? cond.slice(1) : cond;
          return (field === "past" ? past() : has(field)) !== not;
        });

    function offered(button) {
      if (!button.dataset.offered || !fromOptions()) return true; // no hints: anything goes
      const found = get(options, fill(button.dataset.offered, move));
      const wanted = button.dataset.offeredValue
        ? get(move, button.dataset.offeredValue.slice(1, -1))
        : valueOf(button);
      return found !== undefined && holds(found, wanted);
    }

    function draw() {
      for (const node of root.querySelectorAll("[data-when]")) node.hidden = !shown(node);
      for (const node of root.querySelectorAll("[data-players]")) {
        const whose = JSON.parse(node.dataset.players).includes(get(move, "player"));
        node.hidden = !whose || (node.hasAttribute("data-when") && !shown(node));
      }
      for (const button of root.querySelectorAll("[data-set], [data-toggle]")) {
        const path = button.dataset.set || button.dataset.toggle;
        const value = valueOf(button);
        const current = get(move, path);
        const chosen = button.dataset.toggle
          ? Array.isArray(current) && current.some((item) => same(item, value))
          : current !== undefined && same(current, value);
        const needs = (button.dataset.needs || "").split(/\s+/).filter(Boolean);
        const available = chosen || (needs.every(has) && offered(button));
        button.disabled = !available;
        if (button.hasAttribute("data-hide-unoffered")) button.hidden = !available || !shown(button);
        button.classList.toggle("chosen", chosen);
        if (button.tagName === "INPUT") button.checked = chosen;
        else button.setAttribute("aria-pressed", chosen ? "true" : "false");
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
      root.dataset.building = Object.keys(labels).length ? "1" : "";
      keep();
    }

    function forget(field) {
      put(move, field, undefined);
      for (const key of Object.keys(labels)) {
        if (key === field || key.startsWith(field + ".")) delete labels[key];
      }
    }

    function send() {
      // How it reads in the outbox: what each tap chose, in order ("red 7 · C4").
      const label = Object.values(labels).join(" · ");
      const fields = [
        ["json", "1"],
        ["move_json", JSON.stringify(move)],
      ];
      window.playOutbox.send(root.dataset.url, fields, label);
      move = start();
      for (const field of Object.keys(labels)) delete labels[field];
      draw();
    }

    root.addEventListener("click", (event) => {
      const button = event.target.closest("[data-set], [data-toggle], [data-clear], [data-finish]");
      if (!button || !root.contains(button)) return;
      // The form's own step (without a script) is not posted; a radio or a box is ticked.
      if (button.tagName !== "INPUT") event.preventDefault();
      if (button.hasAttribute("data-finish")) {
        if (finishable(button)) send();
        return;
      }
      for (const field of (button.dataset.unset || "").split(/\s+/).filter(Boolean)) forget(field);
      if (button.dataset.clear) {
        for (const field of button.dataset.clear.split(/\s+/)) forget(field);
        draw();
        return;
      }
      const path = button.dataset.set || button.dataset.toggle;
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
      if (fromOptions()) {
        for (const [field, from] of Object.entries(base)) {
          if (!has(field)) put(move, field, get(options, from));
        }
      }
      draw();
    });

    for (const fallback of root.querySelectorAll(".builder-fallback")) fallback.hidden = true;
    root.classList.add("builder-on");
    draw();
  }

  function initAll() {
    for (const root of document.querySelectorAll("[data-builder]")) {
      if (!root.classList.contains("builder-on")) init(root);
    }
  }

  // Each answer swaps in a new form, with the options of the new position.
  document.addEventListener("htmx:afterSettle", initAll);
  // The live refresh says which position a half-built move stands on (games.views.play_live):
  // the server keeps the page as it is if that position stands, or says why the move is gone.
  document.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt && event.detail.elt.id === "play-live" && kept) {
      event.detail.parameters.drafting = kept.position;
    }
  });
  initAll();
})();
