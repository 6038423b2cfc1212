/* Play history: share a finished table's result through the phone's own share sheet (Web Share
   API) where there is one; the Copy button next to it works everywhere. */
(function () {
  "use strict";

  function reveal(root) {
    if (!navigator.share) return;
    var buttons = (root || document).querySelectorAll("[data-share]");
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = false;
  }

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSwap", function (e) { reveal(e.target); });

  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-share]");
    if (!btn || !navigator.share) return;
    var source = document.getElementById(btn.getAttribute("data-share"));
    if (!source) return;
    navigator.share({ text: source.value }).catch(function () { /* closed by the player: nothing to do */ });
  });
})();

/* The result as an image (issue 35): "Share the result" sends the PNG through the phone's share
   sheet (Web Share API with files) where it has one, else saves it. The image is fetched as soon as
   the block shows (and again when the link option changes), so the tap itself can call
   navigator.share at once, as browsers require. Without JavaScript the form is a plain GET that
   downloads the image (dl=1). Offline, the service worker answers from the copy saved with the page. */
(function () {
  "use strict";

  var ready = {};  // url -> Blob

  function imageUrl(form) {
    var link = form.querySelector("input[name='link']");
    return form.getAttribute("action") + (link && link.checked ? "?link=1" : "");
  }

  function prefetch(form) {
    var url = imageUrl(form);
    if (ready[url] || !window.fetch) return Promise.resolve(ready[url]);
    return fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(String(r.status));
      return r.blob();
    }).then(function (blob) { ready[url] = blob; return blob; });
  }

  function prepare(root) {
    var forms = (root || document).querySelectorAll("form[data-share-image]");
    for (var i = 0; i < forms.length; i++) prefetch(forms[i]).catch(function () { /* tried again on the tap */ });
  }

  function save(blob, name) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 30000);
  }

  function send(form, blob) {
    var name = form.getAttribute("data-filename") || "result.png";
    var file = window.File ? new File([blob], name, { type: "image/png" }) : null;
    if (file && navigator.canShare && navigator.canShare({ files: [file] })) {
      navigator.share({ files: [file] }).catch(function () { /* closed by the player: nothing to do */ });
    } else {
      save(blob, name);
    }
  }

  document.addEventListener("DOMContentLoaded", function () { prepare(document); });
  document.addEventListener("htmx:afterSwap", function (e) { prepare(e.target); });
  document.addEventListener("change", function (e) {
    var form = e.target.closest && e.target.closest("form[data-share-image]");
    if (form) prefetch(form).catch(function () { /* tried again on the tap */ });
  });

  document.addEventListener("submit", function (e) {
    var form = e.target.closest && e.target.closest("form[data-share-image]");
    if (!form || !window.fetch || !window.Blob) return;  // the plain download
    e.preventDefault();
    var blob = ready[imageUrl(form)];
    if (blob) { send(form, blob); return; }
    prefetch(form).then(function (b) { send(form, b); }, function () {
      var box = document.getElementById("toast");
      if (box && window.companionNotice) window.companionNotice(box, form.getAttribute("data-failed"));
    });
  }, true);
})();
