// Thricewise setup: the starting grid picked by tapping cards. A tap on a card of the deck puts
// it in the next empty cell of the grid, a second tap (or a tap on the cell) takes it back.
// The page's lists (<select name="cell_N">) stay in the form and carry the choice: without
// JavaScript they are the form.
(function () {
  "use strict";
  function start() {
    var fieldset = document.getElementById("tw-setup");
    var deck = document.getElementById("setup-deck");
    if (!fieldset || !deck) return;
    var selects = Array.prototype.slice.call(fieldset.querySelectorAll("select[name^=cell_]"));
    var buttons = Array.prototype.slice.call(deck.querySelectorAll("button[data-card]"));
    var shortNames = {};
    buttons.forEach(function (button) {
      shortNames[button.dataset.card] = button.dataset.short;
    });

    function render() {
      var next = selects.find(function (select) { return !select.value; });
      selects.forEach(function (select, number) {
        var cell = select.closest(".tw-setup-cell");
        cell.classList.toggle("tw-setup-filled", Boolean(select.value));
        cell.classList.toggle("tw-setup-next", select === next);
        cell.querySelector(".tw-setup-chosen").textContent = select.value
          ? shortNames[select.value] || select.value
          : "?";
        cell.dataset.card = select.value;
      });
      buttons.forEach(function (button) {
        var number = selects.findIndex(function (select) {
          return select.value === button.dataset.card;
        });
        button.setAttribute("aria-pressed", number >= 0 ? "true" : "false");
        button.classList.toggle("tw-picked", number >= 0);
        button.querySelector(".tw-pick-by").textContent = number >= 0 ? String(number + 1) : "";
      });
    }

    deck.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-card]");
      if (!button) return;
      var card = button.dataset.card;
      var chosen = selects.find(function (select) { return select.value === card; });
      if (chosen) {
        chosen.value = "";
      } else {
        var empty = selects.find(function (select) { return !select.value; });
        if (empty) empty.value = card;
      }
      render();
    });
    fieldset.querySelector(".tw-setup-grid").addEventListener("click", function (event) {
      var cell = event.target.closest(".tw-setup-cell");
      if (!cell) return;
      event.preventDefault(); // the label would focus its hidden list
      cell.querySelector("select").value = "";
      render();
    });
    fieldset.classList.add("tw-js");
    deck.hidden = false;
    render();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
