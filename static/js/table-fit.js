/* The table screen on a laptop or a TV (issue 33): the board as large as its box allows, never
   larger, so that the screen is never scrolled. Its box is the grid's (static/css/table.css);
   what the board holds is scaled (CSS zoom) to the smaller of the two ratios, after each live
   refresh and each change of the window's size. */
(() => {
  "use strict";
  const wide = matchMedia("(min-width: 64rem)");
  const LARGEST = 2.5;

  function fit() {
    const frame = document.querySelector(".table-screen > .board-frame");
    const board = frame && frame.querySelector(".board-fit");
    if (!board) return;
    board.style.zoom = "";
    board.style.width = wide.matches ? "max-content" : "";
    if (!wide.matches || !board.offsetWidth || !board.offsetHeight) return;
    // The board at its own width (its lines unbroken), scaled to the frame's width or height,
    // whichever it meets first.
    const scale =
      Math.floor(
        Math.min(
          frame.clientWidth / board.offsetWidth,
          frame.clientHeight / board.offsetHeight,
          LARGEST,
        ) * 100,
      ) / 100;
    board.style.zoom = String(scale);
    // Zoomed, it still spans the frame's width (a board that flows fills it).
    board.style.width = `${frame.clientWidth / scale}px`;
  }

  addEventListener("resize", fit);
  document.addEventListener("htmx:afterSettle", fit);
  fit();
})();
