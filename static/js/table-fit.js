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
    if (!board) return 0;
    board.style.zoom = "";
    board.style.width = "";
    if (!wide.matches || !frame.clientWidth || !frame.clientHeight) return 0;
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
    return low;
  }

  // From across a room (issue 33): no text on the board under 20 px as drawn.
  const LEAST_PX = 20;
  let lifted = [];

  // The elements whose own text the board shows under LEAST_PX at ``scale`` (text for screen
  // readers alone, clipped to a pixel, aside).
  function small(board, scale) {
    const found = new Set();
    const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    while (walker.nextNode()) {
      const text = walker.currentNode;
      const element = text.parentElement;
      if (!element || found.has(element) || !text.textContent.trim()) continue;
      range.selectNodeContents(text);
      const box = range.getBoundingClientRect();
      if (box.width <= 1.5 || box.height <= 1.5) continue;
      if (parseFloat(getComputedStyle(element).fontSize) * scale < LEAST_PX - 0.05) found.add(element);
    }
    return [...found];
  }

  // Fitted, then made readable: a board whose text would be under 20 px first drops its fine
  // detail (its "compact" rules in static/css/table.css) and is fitted again; text still under
  // 20 px is then lifted to it and the board fitted again, a few rounds (each lift makes the
  // board larger, so its scale a little smaller: the lift aims a little above).
  function fitReadable() {
    const frame = document.querySelector(".table-screen > .board-frame");
    const board = frame && frame.querySelector(".board-fit");
    if (!board) return;
    frame.classList.remove("compact");
    for (const element of lifted) element.style.fontSize = "";
    lifted = [];
    let scale = fit();
    if (!scale || !small(board, scale).length) return;
    frame.classList.add("compact");
    scale = fit();
    for (let round = 0; round < 5; round += 1) {
      const under = small(board, scale);
      if (!under.length) return;
      for (const element of under) element.style.fontSize = `${LEAST_PX / (scale * 0.95)}px`;
      lifted.push(...under);
      scale = fit();
    }
  }

  addEventListener("resize", fitReadable);
  document.addEventListener("htmx:afterSettle", fitReadable);
  fitReadable();
})();
