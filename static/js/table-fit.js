/* The table screen on a laptop or a TV (issue 33): the board as large as its box allows, never
   larger, so that the screen is never scrolled. Its box is the grid's (static/css/table.css);
   what the board holds is scaled (CSS zoom) to the largest scale at which it fits the box: its
   lines of text wrap to the box's width, its grid of cards or squares (which cannot wrap) must
   not overflow it, and the whole must not be taller than the box. Done again after each live
   refresh and each change of the window's size. */
(() => {
  "use strict";
  const wide = matchMedia("(min-width: 64rem)");
  const LARGEST = 2.5;
  const SMALLEST = 0.3;

  // At ``scale``, the board is given the frame's width (its text wraps to it): it fits when
  // nothing inside is wider than that and the whole is no taller than the frame.
  function fits(frame, board, scale) {
    board.style.zoom = String(scale);
    board.style.width = `${frame.clientWidth / scale}px`;
    return (
      board.scrollWidth <= board.clientWidth + 1 &&
      board.offsetHeight * scale <= frame.clientHeight + 1
    );
  }

  function fit() {
    const frame = document.querySelector(".table-screen > .board-frame");
    const board = frame && frame.querySelector(".board-fit");
    if (!board) return;
    board.style.zoom = "";
    board.style.width = "";
    if (!wide.matches || !frame.clientWidth || !frame.clientHeight) return;
    // The largest scale that fits, to a hundredth: a few layouts, once per change.
    let low = SMALLEST;
    let high = LARGEST;
    if (fits(frame, board, high)) low = high;
    while (high - low > 0.01) {
      const middle = (low + high) / 2;
      if (fits(frame, board, middle)) low = middle;
      else high = middle;
    }
    fits(frame, board, Math.floor(low * 100) / 100);
  }

  addEventListener("resize", fit);
  document.addEventListener("htmx:afterSettle", fit);
  fit();
})();
