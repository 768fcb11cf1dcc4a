// The play page's live refresh gives way to the page's own move or undo (hx-sync in
// templates/plays/play.html): otherwise it came back with the draft of before the tap and told
// the phone that entered the move that it came from another phone. But a change from another
// phone announced in that moment would then wait for the next one. So the page remembers the
// newest version its stream announced and, after each swap, fetches the play again if it shows
// an older one.
(function () {
  var announced = 0;
  document.addEventListener("htmx:sseMessage", function (event) {
    var id = parseInt(event.detail && event.detail.lastEventId, 10);
    if (id > announced) announced = id;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var main = document.getElementById("play-main");
    var live = document.getElementById("play-live");
    if (main && live && announced > parseInt(main.dataset.version, 10)) {
      htmx.trigger(live, "sse:changed");
    }
  });
})();
