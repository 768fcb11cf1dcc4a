// Entering a result on a phone (templates/plays/result_new.html). Without this script the form
// works as it is: tick the players, type scores or places. With it:
// - places only: the players are tapped in finishing order, each tap gives the next place; a
//   player tied with the one placed last is tapped on their own "=" button instead (one tap,
//   as any other place: a result of places takes players + 2 taps, ties or not); tapping a
//   placed player again takes them out and the places after close up;
// - scores: tapping a player shows and focuses their score, so the keypad is already up (in
//   a team game their team's field first: one digit typed, and their score's is next);
// - a score typed as a sum ("6+10-3") shows what it comes to. The server reads it again
//   (games.results.parse_score): this is only a preview, and it never evaluates code.
(function () {
  "use strict";
  const form = document.getElementById("result-form");
  if (!form) return;
  form.classList.add("js");
  const ranks = form.dataset.result === "ranks";
  const ordinals = (form.dataset.ordinals || "{n}").split(",");
  const order = []; // places only: [{seat, tied}] in the order tapped

  function ordinal(n) {
    const pattern = ordinals[Math.min(n, ordinals.length) - 1] || ordinals[ordinals.length - 1];
    return pattern.replace("{n}", String(n));
  }

  function seatOf(input) {
    return input.closest(".result-seat");
  }

  function renumber() {
    let place = 0;
    order.forEach(function (entry, index) {
      if (!(entry.tied && index > 0)) place = index + 1;
      entry.seat.querySelector(".place").value = String(place);
      entry.seat.querySelector(".place-badge").textContent = ordinal(place);
    });
    // Each player not yet placed may be tied with the last one placed: "= 2nd".
    form.querySelectorAll(".result-seat").forEach(function (seat) {
      const button = seat.querySelector(".tie-with");
      if (!button) return;
      const placed = order.some(function (entry) { return entry.seat === seat; });
      button.hidden = placed || order.length === 0;
      button.querySelector(".tie-place").textContent = place ? ordinal(place) : "";
    });
  }

  form.querySelectorAll('input[name="player"]').forEach(function (box) {
    const seat = seatOf(box);
    const team = seat.querySelector(".team");
    const score = seat.querySelector(".score");
    if (team && score) {
      // One digit is a whole team number while fewer than ten players are tapped (there are no
      // more teams than players): the score's field takes over, with no tap.
      team.addEventListener("input", function () {
        const tapped = form.querySelectorAll('input[name="player"]:checked').length;
        if (/^[1-9]$/.test(team.value) && tapped < 10) score.focus();
      });
    }
    if (ranks) {
      const place = seat.querySelector(".place");
      if (box.checked && place && place.value) {
        order.push({ seat: seat, tied: false, was: parseInt(place.value, 10) || 0 });
      } else if (place) {
        place.value = "";
      }
    }
    box.addEventListener("change", function () {
      if (ranks) {
        const at = order.findIndex(function (entry) { return entry.seat === seat; });
        if (box.checked && at < 0) {
          order.push({ seat: seat, tied: false });
        } else if (!box.checked && at >= 0) {
          order.splice(at, 1);
          if (order[at]) order[at].tied = order[at].tied && at > 0;
          seat.querySelector(".place").value = "";
          seat.querySelector(".place-badge").textContent = "";
        }
        renumber();
        if (box.checked && team) team.focus(); // places by teams: the team is typed
        return;
      }
      // A team game asks the player's team first, then their score.
      const field = seat.querySelector(".team") || seat.querySelector(".score");
      if (box.checked && field) field.focus();
    });
    const tieWith = seat.querySelector(".tie-with");
    if (tieWith) {
      tieWith.addEventListener("click", function () {
        if (box.checked || order.length === 0) return;
        box.checked = true;
        order.push({ seat: seat, tied: true });
        renumber();
        // The focus stays on the player just placed (the button is now hidden), or goes to
        // their team's field when places go by teams.
        (team || box).focus();
      });
    }
  });
  if (ranks) {
    // A form sent back with an error: the places as they were typed or tapped.
    order.sort(function (a, b) { return a.was - b.was; });
    order.forEach(function (entry, index) {
      entry.tied = index > 0 && entry.was === order[index - 1].was;
    });
    renumber();
  }

  // A sum's preview: signed decimal terms added up, as the server will.
  const SUM = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([+-](\d+([.,]\d*)?|[.,]\d+))*$/;
  function preview(input) {
    const output = input.parentElement.querySelector(".sum");
    if (!output) return;
    const text = input.value.replace(/\s+/g, "").replace(/\u2212/g, "-");
    if (!SUM.test(text) || !/\d[+-]/.test(text)) {
      output.textContent = "";
      return;
    }
    let total = 0;
    (text.match(/[+-]?[^+-]+/g) || []).forEach(function (term) {
      total += parseFloat(term.replace(",", "."));
    });
    output.textContent = "= " + String(Math.round(total * 10000) / 10000);
  }
  form.querySelectorAll(".score").forEach(function (input) {
    input.addEventListener("input", function () { preview(input); });
    preview(input);
  });
})();
