/* A setup entered by tapping: the places to fill ("slots": Buntherum's twelve series cards,
   3-High's fifteen pieces, Thricewise's starting grid) are filled in order by tapping "cells"
   (a card of the colour × object grid, a square of the chessboard, a card of the deck).

   Progressive enhancement: the form's own fields (the selects the server reads) stay the one
   source of truth. Without JavaScript they are shown and used as they are; with it they are
   hidden, each tap writes them, and the board is drawn again from them.

   Markup, inside a [data-tap-setup] element (hidden until this script shows it):
   - [data-slot] buttons, in the order they are filled; data-fields = the ids of the form
     fields that hold the slot's value (a value "red-die" fills two fields: "red", "die");
     data-name = the slot in words; a [data-show] child shows the value, a [data-mark] child is
     what the slot leaves on its cell; a [data-spoken] child (visually hidden) is given the
     slot's name, else aria-label is.
   - [data-cell] buttons: data-cell = the value, data-label = its name, data-class = a class the
     slot takes to look like it; a [data-face] child is what the slot shows; a [data-marks]
     child receives the marks of the slots on the cell.
   - data-unique="1": a cell fills one slot at most (tapping a filled cell takes it back).
   - [data-status] (aria-live) says what the next tap does: data-next ("{slot}"), data-done,
     data-again ("{slot}", after a cell was taken back), data-move ("{slot}").
   - .tap-fallback elements are hidden once the taps work. */
(() => {
  "use strict";

  function init(root) {
    const slots = [...root.querySelectorAll("[data-slot]")];
    const cells = [...root.querySelectorAll("[data-cell]")];
    const byValue = new Map(cells.map((cell) => [cell.dataset.cell, cell]));
    const unique = root.dataset.unique === "1";
    const status = root.querySelector("[data-status]");
    const fieldsOf = new Map(
      slots.map((slot) => [slot, slot.dataset.fields.split(" ").map((id) => document.getElementById(id))]),
    );
    const read = (slot) => {
      const parts = fieldsOf.get(slot).map((field) => field.value);
      const value = parts.every(Boolean) ? parts.join("-") : "";
      return byValue.has(value) ? value : "";
    };
    const write = (slot, value) => {
      const parts = value ? value.split("-") : [];
      fieldsOf.get(slot).forEach((field, index) => {
        field.value = parts[index] || "";
      });
    };
    const nextEmpty = (from) => {
      for (let step = 1; step <= slots.length; step += 1) {
        const index = (from + step) % slots.length;
        if (!read(slots[index])) return index;
      }
      return -1;
    };
    const say = (template, slot) => {
      status.textContent = (template || "").replace("{slot}", slot ? slot.dataset.name : "");
    };

    let current = nextEmpty(-1);

    function draw() {
      const marks = new Map(cells.map((cell) => [cell, []]));
      slots.forEach((slot, index) => {
        const value = read(slot);
        const cell = byValue.get(value);
        const show = slot.querySelector("[data-show]");
        show.innerHTML = "";
        if (slot.dataset.classes) slot.classList.remove(slot.dataset.classes);
        slot.dataset.classes = "";
        if (cell) {
          const face = cell.querySelector("[data-face]");
          show.append(...(face ? face.cloneNode(true).childNodes : [document.createTextNode(value)]));
          if (cell.dataset.class) slot.classList.add(cell.dataset.class);
          slot.dataset.classes = cell.dataset.class || "";
          marks.get(cell).push(slot);
        }
        slot.classList.toggle("tap-filled", Boolean(cell));
        slot.classList.toggle("tap-current", index === current);
        slot.setAttribute("aria-pressed", index === current ? "true" : "false");
        const slotName = `${slot.dataset.name}: ${cell ? cell.dataset.label : "—"}`;
        // a slot showing words of its own ("Card 1 Sailor") is named by its hidden [data-spoken]
        const slotSpoken = slot.querySelector("[data-spoken]");
        if (slotSpoken) slotSpoken.textContent = slotName;
        else slot.setAttribute("aria-label", slotName);
      });
      for (const [cell, on] of marks) {
        const box = cell.querySelector("[data-marks]");
        if (box) {
          box.innerHTML = "";
          for (const slot of on) {
            const mark = slot.querySelector("[data-mark]");
            if (mark) box.append(...mark.cloneNode(true).childNodes);
          }
        }
        cell.classList.toggle("tap-taken", on.length > 0);
        const names = on.map((slot) => slot.dataset.name).join(", ");
        const name = names ? `${cell.dataset.label} (${names})` : cell.dataset.label;
        // Named by a hidden [data-spoken] child, not aria-label: what the cell shows (its face,
        // its marks) is then no name that differs from the one it is given (WCAG 2.5.3).
        const spoken = cell.querySelector("[data-spoken]");
        if (spoken) spoken.textContent = name;
        else cell.setAttribute("aria-label", name);
      }
    }

    function tapCell(cell) {
      const value = cell.dataset.cell;
      const holders = slots.filter((slot) => read(slot) === value);
      if (unique && holders.length) {
        // Tapped again: the card is taken back, its place is the next to fill.
        write(holders[0], "");
        current = slots.indexOf(holders[0]);
        draw();
        say(root.dataset.again, holders[0]);
        return;
      }
      if (current < 0) {
        if (holders.length) {
          // Everything placed: tapping a square picks up its top piece, to place it again.
          current = slots.indexOf(holders[holders.length - 1]);
          draw();
          say(root.dataset.move, slots[current]);
        } else {
          say(root.dataset.done);
        }
        return;
      }
      write(slots[current], value);
      current = nextEmpty(current);
      draw();
      if (current < 0) say(root.dataset.done);
      else say(root.dataset.next, slots[current]);
    }

    root.addEventListener("click", (event) => {
      const cell = event.target.closest("[data-cell]");
      const slot = event.target.closest("[data-slot]");
      if (cell && root.contains(cell)) tapCell(cell);
      else if (slot && root.contains(slot)) {
        current = slots.indexOf(slot);
        draw();
        say(root.dataset.next, slot);
      }
    });
    // The lists may still be used (the card helper's own fields, typed values): follow them.
    for (const fields of fieldsOf.values()) {
      for (const field of fields) field.addEventListener("change", draw);
    }

    for (const fallback of document.querySelectorAll(".tap-fallback")) fallback.hidden = true;
    root.hidden = false;
    draw();
    if (current < 0) say(root.dataset.done);
    else say(root.dataset.next, slots[current]);
  }

  for (const root of document.querySelectorAll("[data-tap-setup]")) init(root);
})();
