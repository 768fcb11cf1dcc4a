/* The outbox (issue 28): every finished move and every undo the play page sends is kept in the
   browser (localStorage: it survives a reload and a closed tab) until the server has answered
   it, and sent in order, one at a time. Paper never loses a mark; neither does the page.

   - Each change is given a key once, when it is made (the Idempotency-Key header): sent again
     after a lost answer, the server does it once and answers as the first time.
   - Each change carries the version the play would be at when it arrives: the page's, plus one
     for each change waiting ahead of it. A change another phone made meanwhile makes it stale,
     and the server refuses it rather than apply it to a position its author never saw.
   - While the network is down the changes wait, and the page says how many (#outbox, whose
     data-waiting holds the count). They are sent when it returns, or every 2 s meanwhile.
   - A change the server refuses (the referee's verdict, or made stale) stops the queue there:
     the answer, which says why, is shown, and #outbox offers to send it again at the play as it
     stands now, or to drop it; the changes behind it keep waiting.

   What is sent: the fields of the form, as a form would post them, with the HX-Request header
   and the parts the page shows, so that the answer is what changed of the play's main fragment
   (static/js/play-parts.js puts it in place) and the server's X-Play-Change header says what
   became of it (games.views.play_page).

   Other scripts call window.playOutbox.send(url, fields, label, typed, built, replacing):
   fields is a list of [name, value] pairs, label how the change reads in the outbox ("Ana: red
   7 at C4"), typed the JSON typed for it or built the move builder's state ({move, labels}),
   where a refused change goes back to be put right, and replacing the key of the refused change
   it puts right (window.playOutbox.stoppedAt(): the queue stopped there). */
(() => {
  "use strict";

  const box = document.getElementById("outbox");
  if (!box) return;
  const stored = `outbox:${box.dataset.play}`;
  const RETRY_MS = 2000;
  let sending = false;
  let retry = null;
  // A typed move dropped from the queue, back in its box until it is entered again: every
  // swap of the fragment draws a new, empty box, which gets it back.
  let toPutRight = "";

  function putRight() {
    const typed = document.getElementById("move-json");
    if (!toPutRight || !typed) return;
    typed.value = toPutRight;
    document.getElementById("move-json-box").open = true;
  }

  // A refused move goes back where it was made, to be put right: a typed one into its box,
  // one built by tapping into the move builder (static/js/move-builder.js), tap for tap.
  // ``stoppedAt``: the key of the refused move the queue stopped at, which the move put right
  // takes the place of, ahead of the moves behind it (send's ``replacing``).
  function putBack(change, stoppedAt = null) {
    if (change.typed) {
      toPutRight = change.typed;
      putRight();
    } else if (change.built) {
      const detail = { ...change.built, replacing: stoppedAt };
      document.dispatchEvent(new CustomEvent("outbox:putback", { detail }));
    }
  }

  function load() {
    try {
      const list = JSON.parse(localStorage.getItem(stored) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (error) {
      return [];
    }
  }

  function save(list) {
    if (list.length) localStorage.setItem(stored, JSON.stringify(list));
    else localStorage.removeItem(stored);
    show(list);
    // The move builder builds without hints while moves wait (static/js/move-builder.js).
    document.dispatchEvent(new CustomEvent("outbox:changed", { detail: { waiting: list.length } }));
  }

  function newKey() {
    // Not crypto.randomUUID: a page served over plain http on a home network has no secure
    // context, and getRandomValues works everywhere.
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  function pageVersion() {
    const main = document.getElementById("play-main");
    return main ? parseInt(main.dataset.version, 10) : NaN;
  }

  function csrfToken() {
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function words(name, count) {
    return (box.dataset[name] || "").replace("{n}", String(count));
  }

  function show(list) {
    const waiting = list.length;
    const stopped = waiting && list[0].refused;
    box.dataset.waiting = String(waiting);
    box.hidden = waiting === 0;
    box.classList.toggle("outbox-stopped", Boolean(stopped));
    const text = box.querySelector("[data-outbox-text]");
    const actions = box.querySelector("[data-outbox-actions]");
    actions.hidden = !stopped;
    if (!waiting) {
      text.textContent = "";
    } else if (stopped) {
      const behind = waiting - 1;
      // A move built by tapping that the referee refused is back in the builder meanwhile.
      const said = list[0].built && stopped === "refused" ? "refusedBuilt" : "refused";
      text.textContent =
        words(said, behind).replace("{move}", list[0].label) +
        (behind ? " " + words(behind === 1 ? "behindOne" : "behindMany", behind) : "");
    } else if (navigator.onLine === false) {
      text.textContent = words(waiting === 1 ? "offlineOne" : "offlineMany", waiting);
    } else {
      text.textContent = words(waiting === 1 ? "sendingOne" : "sendingMany", waiting);
    }
  }

  function swap(html) {
    // Only what changed (static/js/play-parts.js), or the whole fragment.
    if (!window.playParts.put(html)) {
      htmx.swap(document.getElementById("play-main"), html, { swapStyle: "outerHTML" });
    }
    putRight();
  }

  // While a change is on its way, the live refresh waits: its answer would race this one's
  // (htmx's hx-sync orders the page's own requests, not this fetch). What was announced
  // meanwhile is fetched once the answer is in (static/js/live-catchup.js).
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (sending && event.detail.elt && event.detail.elt.id === "play-live") event.preventDefault();
  });

  function later() {
    if (retry === null) retry = setTimeout(() => {
      retry = null;
      pump();
    }, RETRY_MS);
  }

  async function pump() {
    if (sending) return;
    const list = load();
    show(list);
    if (!list.length || list[0].refused) return;
    if (navigator.onLine === false) return later();
    sending = true;
    const change = list[0];
    let answer;
    try {
      answer = await fetch(change.url, {
        method: "POST",
        body: new URLSearchParams(change.fields),
        credentials: "same-origin",
        headers: {
          "Idempotency-Key": change.key,
          "X-CSRFToken": csrfToken(),
          "HX-Request": "true",
          "HX-Current-URL": location.href,
          [window.playParts.HEADER]: window.playParts.shown(),
        },
      });
    } catch (error) {
      // No network: it waits (the same key makes a second sending harmless).
      sending = false;
      show(load());
      return later();
    }
    const outcome = answer.headers.get("X-Play-Change");
    const redirect = answer.headers.get("HX-Redirect");
    if (redirect) {
      // The play was deleted meanwhile: nothing of it can be stored any more.
      save([]);
      sending = false;
      location.href = redirect;
      return;
    }
    if (!outcome || answer.status >= 500) {
      // The server could not answer (a restart, an outage): send it again in a moment.
      sending = false;
      return later();
    }
    const html = await answer.text();
    const now = load();
    let over = null; // a refused change with nothing behind it
    let stopped = false; // the queue stopped at this change
    if (outcome === "done") {
      now.shift();
    } else if (now.length && now[0].key === change.key) {
      if (now.length === 1) {
        // Nothing waits behind it: it is over, as for a form sent at once; the answer says
        // why next to the controls, and a move built by tapping is put back in the builder.
        // (A typed one is not put back into the JSON box: it would be sent again with the
        // next tap, the box winning over the taps.)
        over = now.shift();
      } else {
        now[0].refused = outcome; // the queue stops here until put right, sent again or dropped
        stopped = true;
      }
    }
    save(now);
    sending = false; // before the swap: what was announced meanwhile is fetched as it settles
    swap(html);
    if (outcome === "refused" && change.built) {
      // The refusal is said next to the controls, and a move built by tapping is back there,
      // tap for tap, to be put right: over, it is entered anew; with the queue stopped at it,
      // the move put right takes its place, ahead of the moves behind it. (A stale one, made
      // before another phone's change, is not: the move it was is on the table already, most
      // likely. Nor is a typed one, into its box: it would be sent again with the next tap,
      // the box winning over the taps; dropped, it goes back there.)
      if (over) putBack(over);
      else if (stopped) putBack(change, change.key);
    }
    if (outcome === "done") pump();
  }

  function madeAt(change, version) {
    // The version the change is sent at, in its fields as a form would post it.
    change.fields = change.fields.filter(([name]) => name !== "version");
    change.fields.push(["version", String(version)]);
  }

  function stoppedAt() {
    const list = load();
    return list.length && list[0].refused ? list[0].key : null;
  }

  // ``replacing``: the key of the refused change the queue stopped at, which this one puts
  // right: it takes that change's place, ahead of those behind it (if the queue still stops
  // there; otherwise it joins the queue's end).
  function send(url, fields, label, typed = "", built = null, replacing = null) {
    const list = load();
    const posted = fields.filter(([name]) => name !== "csrfmiddlewaretoken");
    const change = { key: newKey(), url, fields: posted, label, typed, built };
    if (replacing && stoppedAt() === replacing) {
      list[0] = change;
      rebase(list);
    } else {
      // The version the play will be at when this change arrives: one more per change ahead.
      madeAt(change, pageVersion() + list.length);
      list.push(change);
    }
    save(list);
    pump();
  }

  function rebase(list) {
    // Every change waiting is sent at the play as it stands now, one version per change ahead.
    list.forEach((change, ahead) => madeAt(change, pageVersion() + ahead));
  }

  box.addEventListener("click", (event) => {
    const button = event.target.closest("[data-outbox]");
    if (!button) return;
    const list = load();
    if (!list.length) return;
    let dropped = null;
    if (button.dataset.outbox === "again") {
      // Sent again on purpose, at the play as it stands: a new request, so a new key.
      delete list[0].refused;
      list[0].key = newKey();
      rebase(list);
    } else if (button.dataset.outbox === "drop") {
      dropped = list.shift();
      rebase(list);
    }
    save(list);
    // A move dropped goes back where it was made, to be put right and entered again.
    if (dropped) putBack(dropped);
    pump();
  });

  // A finished move or an undo, submitted by its form, goes through the outbox: the typed
  // move ("Advanced", the JSON box) and the undo button; the forms of a move built on the
  // phone hand theirs over themselves (static/js/move-builder.js).
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      const submitter = event.submitter;
      const typed = form.id === "move-form" && submitter && submitter.name === "json";
      if (form.hasAttribute("data-plain")) return; // a correction's form posts itself (issue 30)
      if (!typed && !form.matches("[data-outbox-form]")) return;
      event.preventDefault();
      event.stopImmediatePropagation(); // htmx would post it itself
      const data = new FormData(form, submitter);
      const fields = [...data.entries()].filter(([name]) => name !== "idempotency_key");
      const text = typed ? form.querySelector("#move-json").value.trim() : "";
      if (typed) toPutRight = "";
      send(form.action, fields, typed ? text : form.dataset.label, text);
      if (typed) form.querySelector("#move-json").value = "";
    },
    true,
  );

  document.addEventListener("htmx:afterSwap", putRight);
  window.addEventListener("online", pump);
  window.addEventListener("offline", () => show(load()));
  window.playOutbox = { send, stoppedAt, waiting: () => load().length };
  pump();
})();
