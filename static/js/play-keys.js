/* The play page by keyboard (issue 33): a board, a hand or a grid is one tab stop, its buttons
   reached with the arrow keys (roving tabindex, as the ARIA grid pattern does), and after each
   tap or swap the focus lands on the next thing to choose, never on <body>.

   Markup:
   - data-keys on an element: its buttons are one tab stop. The arrow keys move between those
     that can be pressed, by where they stand on the screen (a disabled or hidden one is passed
     over); Home and End go to the first and last of the row (data-keys="grid") or of all
     (data-keys="list"), Ctrl+Home and Ctrl+End to the first and last of all. A letter or a
     digit goes to the next button whose text starts so (typed quickly, several: "c4", or a
     later word of it: "moo" for the Ace of Moons; the same one again goes on to the next: "7",
     "7"): its data-key-text, else its data-label, else its text. Enter and Space press it, as
     any button.
   - data-type-on on a step: a key that names none of its buttons but one of the step it leads
     to takes the button under the focus and goes on there: a Punto move is typed as it is
     written, "7c4" and Enter.
   - data-next="N" on a step of a move (a data-keys element, a fieldset of radio buttons, a
     button): after a tap, the focus goes to the step of the lowest N that offers something,
     unless the button tapped is still there and its own step's N is not higher (a card
     revealed among others: the next one is chosen in the same deck).
   - After a swap (a move stored, a refusal, a refresh after a change elsewhere): the
     referee's refusal (#move-error) if new, else the element of the same id, else, unless this
     phone's own move was just stored, the same button in the part of the same id, else the
     next thing to choose.
   - .skip-link[href="#move-panel"]: to the next thing to choose (without a script: the panel).

   Only the focus a swap or a tap took away is put back: focus the player put elsewhere (the
   log, a link) stays there. */
(() => {
  "use strict";

  const TYPEAHEAD_MS = 1000;
  const ITEM = "button, input[type=radio], input[type=checkbox]";

  let arrowing = false; // the browser ticks the radio an arrow key reaches: not a choice made
  let last = null; // {node, id, part, match, group, index}: what had the focus last in the play
  let errorSeen = document.getElementById("move-error");
  let waiting = window.playOutbox ? window.playOutbox.waiting() : 0;
  let ownMove = false; // a move of this phone was queued: its answer's swap starts the next one
  let sentFrom = null; // where this script put the focus once it was queued

  const visible = (node) =>
    Boolean(node && node.isConnected && node.getClientRects().length && !node.closest("[hidden]"));
  const available = (node) => visible(node) && !node.disabled;
  const rank = (step) => Number(step.dataset.next);

  function items(group) {
    return [...group.querySelectorAll(ITEM)].filter(
      (item) => item.closest("[data-keys]") === group && available(item),
    );
  }

  // What a step offers to focus first: a group's tab stop or its first button, the radio
  // ticked or the first, the button itself.
  function entry(step) {
    if (step.matches(ITEM)) return available(step) ? step : null;
    const inside = step.hasAttribute("data-keys")
      ? items(step)
      : [...step.querySelectorAll(ITEM)].filter(available);
    if (!inside.length) return null;
    return inside.find((item) => item.matches(":checked")) || inside[0];
  }

  function steps() {
    return [...document.querySelectorAll("#play-main [data-next]")]
      .map((step, order) => ({ step, order }))
      .sort((a, b) => rank(a.step) - rank(b.step) || a.order - b.order)
      .map(({ step }) => step);
  }

  function next() {
    for (const step of steps()) {
      const item = entry(step);
      if (item) return { step, item };
    }
    return null;
  }

  // The focus put on a node: by this script (``placed``), or by the player's keys.
  function focus(node, placed = true) {
    if (!node.matches(ITEM) && !node.matches("a[href], [tabindex]")) node.tabIndex = -1;
    node.focus({ preventScroll: true });
    if (ownMove && placed) sentFrom = node;
    const box = node.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) node.scrollIntoView({ block: "nearest" });
  }

  // --- One tab stop per group ---------------------------------------------------------------

  function rove(group, current) {
    const all = [...group.querySelectorAll(ITEM)].filter((item) => item.closest("[data-keys]") === group);
    const offered = all.filter(available);
    let stop = current && offered.includes(current) ? current : null;
    if (!stop) stop = offered.find((item) => item.tabIndex === 0 && item.hasAttribute("tabindex"));
    if (!stop) stop = offered.find((item) => item.matches(":checked")) || offered[0];
    for (const item of all) item.tabIndex = item === stop ? 0 : -1;
  }

  function roveAll() {
    for (const group of document.querySelectorAll("[data-keys]")) {
      rove(group, group.contains(document.activeElement) ? document.activeElement : null);
    }
  }

  // --- Arrows, Home and End, and letters ------------------------------------------------------

  function centre(node) {
    const box = node.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2, w: box.width, h: box.height };
  }

  function toward(from, list, key) {
    const here = centre(from);
    const [dx, dy] = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
    let best = null;
    let bestScore = Infinity;
    for (const item of list) {
      if (item === from) continue;
      const there = centre(item);
      const along = (there.x - here.x) * dx + (there.y - here.y) * dy; // how far in that direction
      const across = Math.abs(dx ? there.y - here.y : there.x - here.x);
      if (along <= 1) continue;
      // The same row (or column) first, then the nearest: a disabled cell is passed over.
      const inLine = across < (dx ? Math.min(here.h, there.h) : Math.min(here.w, there.w)) / 2;
      const score = inLine ? along : along + 3 * across + 10_000;
      if (score < bestScore) {
        best = item;
        bestScore = score;
      }
    }
    return best;
  }

  function sameRow(from, list) {
    const here = centre(from);
    return list.filter((item) => Math.abs(centre(item).y - here.y) < Math.min(here.h, centre(item).h) / 2);
  }

  const fold = (text) =>
    text
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .trim();
  const keyText = (item) => fold(item.dataset.keyText || item.dataset.label || item.textContent || "");

  let typed = "";
  let typedAt = 0;
  let typedIn = null;

  function typeahead(group, from, list, key) {
    const now = Date.now();
    if (typedIn !== group || now - typedAt > TYPEAHEAD_MS) typed = "";
    typedIn = group;
    typedAt = now;
    typed += fold(key);
    const at = list.indexOf(from);
    const order = [...list.slice(at + 1), ...list.slice(0, at + 1)]; // from the next one on
    const repeated = [...typed].every((char) => char === typed[0]);
    if (typed.length > 1 && !repeated) {
      // Several letters: this one still, if it fits ("c" then "c4"), an exact one first; else
      // one a later word of which starts so ("moo": the Ace of Moons, told apart from the other
      // aces by its suit alone).
      const fromHere = [from, ...order.slice(0, -1)];
      return (
        fromHere.find((item) => keyText(item) === typed) ||
        fromHere.find((item) => keyText(item).startsWith(typed)) ||
        fromHere.find((item) => keyText(item).split(/\s+/).some((word) => word.startsWith(typed))) ||
        null
      );
    }
    return order.find((item) => keyText(item).startsWith(typed[0])) || null;
  }

  // data-type-on on a step: a key that names none of its buttons but one of the step it leads
  // to (a step that offers nothing until this one is chosen: a Punto card's "7", then the "c"
  // of the cell "c4") takes the button under the focus and goes on there. The move is typed as
  // it is written; a key that names nothing at all does nothing.
  function typeOn(group, from, key) {
    const own = group.closest("[data-type-on]");
    if (!own || !from.matches("button[data-set]")) return false;
    const char = fold(key);
    const toCome = [...document.querySelectorAll("#play-main [data-keys][data-next]")].filter(
      (step) => step !== own && !own.contains(step) && !items(step).length,
    );
    const names = (step) =>
      [...step.querySelectorAll(ITEM)].some((item) => keyText(item).startsWith(char));
    if (!toCome.some(names)) return false;
    from.click(); // the builder takes it, and the focus goes on to the next step
    const active = document.activeElement;
    const there = active && active.closest("[data-keys]");
    if (!there || there === group) return true;
    typed = "";
    const to = typeahead(there, active, items(there), key);
    if (to && to !== active) {
      rove(there, to);
      focus(to, false);
    }
    return true;
  }

  document.addEventListener("keydown", (event) => {
    const from = event.target;
    if (!(from instanceof Element)) return;
    // Enter on a radio button or a box ticks it (it would post the form): the move is built.
    if (event.key === "Enter" && from.matches("#play-main input[type=radio], #play-main input[type=checkbox]")) {
      event.preventDefault();
      from.click();
      return;
    }
    if (from.matches("#play-main input[type=radio]") && event.key.startsWith("Arrow")) {
      arrowing = true;
      setTimeout(() => {
        arrowing = false;
      });
      return;
    }
    const group = from.closest("[data-keys]");
    if (!group || !from.matches(ITEM) || event.altKey || event.metaKey) return;
    const list = items(group);
    let to = null;
    if (event.key.startsWith("Arrow") && !event.ctrlKey) {
      to = toward(from, list, event.key);
    } else if (event.key === "Home" || event.key === "End") {
      const within = event.ctrlKey || group.dataset.keys !== "grid" ? list : sameRow(from, list);
      to = event.key === "Home" ? within[0] : within[within.length - 1];
    } else if (event.key.length === 1 && event.key !== " " && !event.ctrlKey) {
      to = typeahead(group, from, list, event.key);
      if (!to && typeOn(group, from, event.key)) {
        event.preventDefault();
        return;
      }
    } else {
      typed = ""; // Enter, Tab…: what follows is typed anew
      return;
    }
    if (event.key.length !== 1) typed = "";
    event.preventDefault();
    if (to && to !== from) {
      rove(group, to);
      focus(to, false);
    }
  });

  // --- The focus after a tap or a swap --------------------------------------------------------

  function signature(node) {
    // The same button in a part drawn again: by its name and value, or what it sets.
    const attributes = ["name", "value", "data-set", "data-value", "data-at", "data-push", "data-choose", "data-key"];
    return attributes
      .filter((name) => node.hasAttribute(name))
      .map((name) => `[${name}="${CSS.escape(node.getAttribute(name))}"]`)
      .join("");
  }

  document.addEventListener("focusin", (event) => {
    const node = event.target;
    if (!(node instanceof Element) || !node.closest("main")) {
      last = null;
      return;
    }
    const group = node.closest("[data-keys]");
    if (group) rove(group, node);
    const part = node.parentElement && node.parentElement.closest("[id]");
    last = {
      node,
      id: node.id,
      part: part ? part.id : "",
      match: signature(node),
      group,
      index: group ? items(group).indexOf(node) : -1,
    };
  });

  // Focus taken away: what had it is gone, hidden, disabled or moved (a swap, a step drawn, a
  // card laid in a pile), and nothing else has it. A player who clicks outside any control, or
  // leaves for another tab, keeps things so.
  let left = null; // the control the player left on purpose (a press outside any control)
  document.addEventListener("pointerdown", (event) => {
    const on = event.target instanceof Element ? event.target : null;
    if (last && !(on && on.closest("button, a[href], input, select, textarea, summary, [tabindex]"))) {
      left = last.node;
    }
  });
  document.addEventListener("focusin", () => {
    left = null;
  });

  function lost() {
    const active = document.activeElement;
    if (active && active !== document.body && available(active)) return false;
    return Boolean(last) && last.node !== left;
  }

  function restore() {
    // This phone's move stored: the next one starts afresh, unless the player went on choosing
    // while it was on its way.
    const own = ownMove && last.node === sentFrom;
    if (waiting === 0) ownMove = false; // the answer is in
    const error = document.getElementById("move-error");
    if (error && error !== errorSeen) {
      errorSeen = error;
      return focus(error);
    }
    errorSeen = error;
    const before = last;
    if (before.id) {
      const same = document.getElementById(before.id);
      if (same && available(same)) return focus(same);
    }
    if (!own && before.match && before.part) {
      const part = document.getElementById(before.part);
      const same = part && [...part.querySelectorAll(before.match)].find(available);
      if (same) return focus(same);
    }
    const found = next();
    if (found) {
      // Where a button left its group (a card laid in a pile, a cell filled), the one after it.
      if (before.group && before.group === found.step && before.group.isConnected) {
        const list = items(found.step);
        if (list.length) return focus(list[Math.min(Math.max(before.index, 0), list.length - 1)]);
      }
      return focus(found.item);
    }
    const end = document.getElementById("result") || document.getElementById("move-panel");
    if (end && visible(end)) focus(end);
  }

  function check() {
    roveAll();
    if (lost()) restore();
  }

  // A tap of the move being built: on to the next step, unless it stays in its own.
  document.addEventListener("click", (event) => {
    const tapped = event.target instanceof Element && event.target.closest(ITEM);
    if (!tapped || !tapped.closest("main") || arrowing) return;
    if (tapped.matches("[type=submit]:not([data-set], [data-toggle], [data-clear], [data-finish], [data-push], [data-slot-clear], [data-choose], [data-at])")) return;
    roveAll();
    const own = tapped.closest("[data-next]");
    const stays = available(tapped);
    const found = next();
    if (!found) return check();
    if (!stays || !own || rank(found.step) < rank(own)) focus(found.item);
  });

  // The skip link: to the move's next step.
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element && event.target.closest('.skip-link[href="#move-panel"]');
    if (!link) return;
    const found = next();
    if (!found) return;
    event.preventDefault();
    focus(found.item);
  });

  document.addEventListener("outbox:changed", (event) => {
    const now = event.detail ? event.detail.waiting : 0;
    if (now > waiting) ownMove = true;
    waiting = now;
  });

  // Every change of the page (a swap, a step drawn, a button disabled or hidden): one tab stop
  // per group, and the focus put back if it was taken away.
  new MutationObserver(check).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["disabled", "hidden"],
  });
  roveAll();
})();
