/* Answers that carry only what changed (issue 28; games/parts.py). The play page's pieces that a
   move may change carry a fingerprint (data-h). Each request the page makes for the play — a
   move or an undo from the outbox, the live refresh — says which it shows (the X-Play-Parts
   header), and the server answers with only the pieces that differ: the page's element as it
   opens now (its version and position), holding a <template data-part> for each piece to put in
   place, and a <template data-part data-append> with the lines the log lacks (issue 32: the log
   grows by appending, its fingerprint chained over its lines). An answer without that header is
   the whole fragment, swapped as before.

   window.playParts: shown() (the header's value) and put(html) (puts an answer in place; false
   if it is the whole fragment, to swap as such). */
(() => {
  "use strict";

  const HEADER = "X-Play-Parts";

  function shown() {
    const main = document.getElementById("play-main");
    if (!main || !main.dataset.h) return "";
    return [main, ...main.querySelectorAll("[data-h]")]
      .map((node) => `${node.id}:${node.dataset.h}`)
      .join(" ");
  }

  function put(html) {
    const main = document.getElementById("play-main");
    const holder = document.createElement("template");
    holder.innerHTML = html;
    const answer = holder.content.firstElementChild;
    if (!main || !answer || !answer.hasAttribute("data-parts")) return false;
    // The page's element as it stands now: its version, its position, its classes.
    for (const name of main.getAttributeNames()) {
      if (!answer.hasAttribute(name)) main.removeAttribute(name);
    }
    for (const name of answer.getAttributeNames()) {
      if (name !== "data-parts") main.setAttribute(name, answer.getAttribute(name));
    }
    for (const piece of answer.querySelectorAll(":scope > template[data-part]")) {
      const old = document.getElementById(piece.dataset.part);
      if (!old) continue;
      // htmx puts it in place, so that its hx- attributes work and the page's scripts hear
      // htmx:afterSwap and htmx:afterSettle as after a whole swap.
      if (piece.hasAttribute("data-append")) {
        htmx.swap(old, piece.innerHTML, { swapStyle: "beforeend" });
        old.dataset.h = piece.dataset.h; // the log's fingerprint with its new lines
      } else {
        htmx.swap(old, piece.innerHTML, { swapStyle: "outerHTML" });
      }
    }
    return true;
  }

  // htmx's own requests for the play (the live refresh, and forms without the outbox).
  document.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.target && event.detail.target.id === "play-main") {
      const parts = shown();
      if (parts) event.detail.headers[HEADER] = parts;
    }
  });
  document.addEventListener("htmx:beforeSwap", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr || !xhr.getResponseHeader(HEADER)) return;
    // An answer already turned away stays so: a refresh that comes back after the page's own
    // refused change, at the same version, would wipe the refusal (static/js/live-catchup.js).
    if (!event.detail.shouldSwap) return;
    event.detail.shouldSwap = false;
    put(xhr.responseText);
  });

  window.playParts = { HEADER, shown, put };
})();
