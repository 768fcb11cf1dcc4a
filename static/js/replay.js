/* A play's replay (issue 30; templates/plays/_replay_bar.html): the keys ← and → step back and
   forward as its links do, and the slider moves on as soon as it is let go. Without a script,
   the same links, and the slider's "Go" button. */
(() => {
  "use strict";

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    // Typing, or the slider itself (which steps with the same keys), keeps its keys.
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    const which = { ArrowLeft: "[data-replay-back]", ArrowRight: "[data-replay-forward]" }[event.key];
    const link = which && document.querySelector(which);
    if (!link) return;
    event.preventDefault();
    location.href = link.href;
  });

  document.addEventListener("change", (event) => {
    const form = event.target.closest("[data-replay-slider]");
    if (form) form.submit();
  });

  for (const go of document.querySelectorAll("#replay-go")) go.hidden = true;
})();
