// rulekb's set-up of the vendored YASGUI (not part of YASGUI): the endpoint, and the
// named queries as examples that open in a tab. Reads its data from #editor-config.
(function () {
  "use strict";
  var configEl = document.getElementById("editor-config");
  var host = document.getElementById("yasgui");
  if (!configEl || !host || typeof Yasgui === "undefined") return;
  var config = JSON.parse(configEl.textContent);
  var endpoint = new URL(config.endpoint, window.location.href).href;
  var request = { endpoint: endpoint, method: "POST" };
  var yasgui = new Yasgui(host, {
    requestConfig: request,
    copyEndpointOnNewTab: true,
    persistenceId: "rulekb-yasgui",
    endpointCatalogueOptions: { getData: function () { return [{ endpoint: endpoint }]; }, keys: [] },
    yasqe: { value: config.defaultQuery }
  });
  // the plain form stays open only when the server has just answered it
  var plain = document.getElementById("plain");
  if (plain && !config.hasResults) plain.open = false;
  Array.prototype.forEach.call(document.querySelectorAll("a[data-example]"), function (link) {
    link.addEventListener("click", function (event) {
      var example = config.examples[link.getAttribute("data-example")];
      if (!example) return;
      event.preventDefault();
      yasgui.addTab(true, { name: example.title, yasqe: { value: example.text }, requestConfig: request },
                    { avoidDuplicateTabs: true });
      host.scrollIntoView();
    });
  });
})();
