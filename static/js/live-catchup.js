// The play page's live refresh gives way to the page's own move or undo (hx-sync in
// templates/plays/play.html): otherwise it came back with the draft of before the tap and told
// the phone that entered the move that it came from another phone. But a change from another
// phone announced in that moment would then wait for the next one. So the page remembers the
// newest version its stream announced and, after each swap, fetches the play again if it shows
// an older one.
//
// The announcements are read from the stream itself, not from the events htmx hands to the page's
// elements: while a swap replaces #play-live, no element listens, and an announcement arriving
// then was lost (a faster server made that window the usual case for a change made just after a
// tap). A page still behind shortly after an announcement asks again.
(function () {
  var announced = 0;

  function behind() {
    var main = document.getElementById("play-main");
    return main && announced > parseInt(main.dataset.version, 10);
  }

  function catchUp() {
    var live = document.getElementById("play-live");
    if (live && behind()) htmx.trigger(live, "sse:changed");
  }

  function heard(lastEventId) {
    var id = parseInt(lastEventId, 10);
    if (id > announced) announced = id;
  }

  document.addEventListener("htmx:sseMessage", function (event) {
    heard(event.detail && event.detail.lastEventId);
  });
  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail && event.detail.source;
    if (!source) return;
    source.addEventListener("changed", function (message) {
      heard(message.lastEventId);
      // The usual refresh is on its way; this only catches an announcement nobody heard.
      setTimeout(catchUp, 200);
    });
  });
  document.addEventListener("htmx:afterSettle", catchUp);
})();
