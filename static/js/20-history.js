/* The history page: each change's time in this phone's own time zone and language. The server
   writes UTC; without JavaScript that stays, marked as UTC. */
(function () {
  "use strict";
  function localTimes(root) {
    var items = root.querySelectorAll("time[data-local-time]");
    if (!items.length) return;  // building the formatters loads locale data: only where there are times
    var lang = document.documentElement.lang || undefined;
    var today = new Date().toDateString();
    var withDay = new Intl.DateTimeFormat(lang, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
    var timeOnly = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit" });
    for (var i = 0; i < items.length; i++) {
      var when = new Date(items[i].getAttribute("datetime"));
      if (isNaN(when.getTime())) continue;
      items[i].textContent = (when.toDateString() === today ? timeOnly : withDay).format(when);
    }
  }
  document.addEventListener("DOMContentLoaded", function () { localTimes(document); });
})();
