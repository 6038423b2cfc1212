/* Table Companion: the little that htmx does not do. No inline script anywhere (strict CSP). */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  /* A notice: its text and at most one button. The toast here and the live table's status line
     (10-live.js) are both drawn by it. */
  function notice(box, text, actionLabel, action, buttonClass) {
    box.textContent = "";
    if (text) {
      var p = document.createElement("span");
      p.textContent = text;
      box.appendChild(p);
    }
    if (actionLabel && action) {
      var b = document.createElement("button");
      b.type = "button";
      if (buttonClass) b.className = buttonClass;
      b.textContent = actionLabel;
      b.addEventListener("click", action);
      box.appendChild(b);
    }
    box.hidden = !text;
  }
  window.companionNotice = notice;

  var toastTimer = null;

  function toast(text, actionLabel, action) {
    var box = document.getElementById("toast");
    if (!box) return;
    notice(box, text, actionLabel, action && function () { box.hidden = true; action(); });
    clearTimeout(toastTimer);
    if (!actionLabel) toastTimer = setTimeout(function () { box.hidden = true; }, 6000);
  }

  function t(key, fallback) {
    var holder = document.getElementById("js-messages");
    var el = holder && holder.content ? holder.content.querySelector('[data-msg="' + key + '"]') : null;
    return el ? el.textContent : fallback;
  }

  /* Steppers: - and + change the number on the phone; the form sends it when submitted. */
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("button.step[data-for]");
    if (!btn) return;
    var input = document.getElementById(btn.getAttribute("data-for"));
    if (!input) return;
    var step = parseInt(btn.getAttribute("data-step"), 10) || 0;
    var min = input.min === "" ? -Infinity : Number(input.min);
    var max = input.max === "" ? Infinity : Number(input.max);
    var value = parseInt(input.value, 10);
    if (isNaN(value)) value = 0;
    value = Math.min(max, Math.max(min, value + step));
    input.value = String(value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  /* Number entry (m.number): a chip sets the box; typing in the box lights the matching chip (or
     none, so an emptied box is sent empty and refused, never read as 0); ± flips the sign. */
  function numBox(el) {
    var wrap = el.closest("[data-num]");
    return wrap ? wrap.querySelector("input[type=text]") : null;
  }
  document.addEventListener("change", function (e) {
    var radio = e.target;
    if (!radio.matches || !radio.matches(".num-chip input[type=radio]")) return;
    var box = numBox(radio);
    if (!box) return;
    box.value = radio.value;
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.addEventListener("input", function (e) {
    var box = e.target;
    if (!box.matches || !box.matches("[data-num] input[type=text]")) return;
    var value = box.value.trim().replace("\u2212", "-");
    var chips = box.closest("[data-num]").querySelectorAll(".num-chip input[type=radio]");
    for (var i = 0; i < chips.length; i++) chips[i].checked = chips[i].value === value;
  });
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-num-sign]");
    if (!btn) return;
    var box = document.getElementById(btn.getAttribute("data-num-sign"));
    if (!box) return;
    var value = box.value.trim().replace("\u2212", "-");
    box.value = value.charAt(0) === "-" ? value.slice(1) : "-" + value.replace(/^\+/, "");
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.focus();
  });
  /* With JavaScript the ± button gives the minus, so signed boxes can ask for the digits keypad. */
  function numericKeypads(root) {
    var boxes = (root || document).querySelectorAll("input[data-num-signed]");
    for (var i = 0; i < boxes.length; i++) boxes[i].setAttribute("inputmode", "numeric");
  }
  document.addEventListener("htmx:afterSettle", function () { numericKeypads(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { numericKeypads(); });
  else numericKeypads();

  /* New table: reverse the seat order on the phone (the first player stays first). Without
     JavaScript the button posts the form and the server answers with the list reversed. */
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-reverse-seats]");
    if (!btn || !btn.form) return;
    e.preventDefault();
    var form = btn.form, rows = [];
    for (var i = 0; form.elements["players-" + i]; i++) {
      var name = form.elements["players-" + i], colour = form.elements["colours-" + i];
      if (name.value.trim()) rows.push({ name: name.value, colour: colour ? colour.value : "" });
    }
    var turned = rows.slice(0, 1).concat(rows.slice(1).reverse());
    for (var j = 0; form.elements["players-" + j]; j++) {
      var row = turned[j] || { name: "", colour: "" };
      form.elements["players-" + j].value = row.name;
      if (form.elements["colours-" + j]) form.elements["colours-" + j].value = row.colour;
    }
    var hint = document.getElementById("reverse-hint");
    if (hint) hint.textContent = btn.getAttribute("data-done");
  });

  /* Select a read-only link on tap, and copy it with its button. */
  document.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches("[data-copy-source]")) e.target.select();
  });
  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-copy]");
    if (!btn) return;
    var input = document.getElementById(btn.getAttribute("data-copy"));
    if (!input) return;
    // A button may say what it copied (data-copied: "Result copied."); a link by default.
    var said = btn.getAttribute("data-copied");
    var done = function () { toast(said || t("copied", "Link copied.")); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
    } else {
      input.focus();
      input.select();
      try { if (document.execCommand("copy")) done(); } catch (err) { /* the text stays selected */ }
    }
  });

  /* Network trouble and errors: say so, keep what was typed (nothing is swapped). */
  document.addEventListener("htmx:sendError", function (e) {
    toast(t("offline", "No connection: that change may not have been saved. Tap it again when the network is back: it will never count twice."));
  });
  document.addEventListener("htmx:responseError", function (e) {
    var text = t("failed", "That did not work.");
    try {
      var doc = new DOMParser().parseFromString(e.detail.xhr.responseText, "text/html");
      var msg = doc.querySelector("[data-error-message]");
      if (msg) text = msg.textContent;
    } catch (err) { /* keep the generic message */ }
    toast(text, t("reload", "Reload"), function () { window.location.reload(); });
  });

  /* After a swap, keep the keyboard where it was: focus the control with the same id. */
  var lastFocus = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var a = document.activeElement;
    lastFocus = a && a.id ? a.id : (a && a.form && a.form.id ? a.form.id : null);
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!lastFocus) return;
    var el = document.getElementById(lastFocus);
    lastFocus = null;
    if (el && document.activeElement === document.body) {
      var target = el.tagName === "FORM" ? el.querySelector("button, input:not([type=hidden])") : el;
      if (target) target.focus({ preventScroll: true });
    }
  });

  /* Keep the screen awake at the table (Screen Wake Lock API), with an honest status line. */
  var lock = null;
  var wanted = false;

  function wakeMsg(key) {
    var box = document.querySelector("[data-wake]");
    if (!box) return "";
    var tpl = box.querySelector("template[data-wake-messages]");
    var el = tpl && tpl.content.querySelector('[data-msg="' + key + '"]');
    return el ? el.textContent : "";
  }

  function showWake(state) {
    var btn = document.querySelector("[data-wake-toggle]");
    var status = document.querySelector("[data-wake-status]");
    if (btn) btn.setAttribute("aria-pressed", state === "on" ? "true" : "false");
    if (status) status.textContent = wakeMsg(state);
  }

  function acquire() {
    if (!("wakeLock" in navigator) || !window.isSecureContext) { showWake("unsupported"); return; }
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      showWake("on");
      l.addEventListener("release", function () { lock = null; if (!wanted) showWake("off"); });
    }, function () { wanted = false; showWake("failed"); });
  }

  function initWake() {
    var btn = document.querySelector("[data-wake-toggle]");
    if (!btn) return;
    if (!("wakeLock" in navigator) || !window.isSecureContext) {
      showWake("unsupported");
    } else {
      showWake("off");
    }
    btn.addEventListener("click", function () {
      wanted = !wanted;
      try { localStorage.setItem("wake", wanted ? "1" : "0"); } catch (err) { /* private mode */ }
      if (wanted) acquire();
      else if (lock) lock.release();
      else showWake("off");
    });
    try { wanted = localStorage.getItem("wake") === "1"; } catch (err) { wanted = false; }
    if (wanted) acquire();
  }

  document.addEventListener("visibilitychange", function () {
    if (wanted && !lock && document.visibilityState === "visible") acquire();
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initWake);
  else initWake();
})();
