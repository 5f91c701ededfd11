// The host's key in the browser's own storage (pages/hostkey.py): it outlives the server process
// that served the tab, so a tab that reconnects to another process (or to the same one restarted)
// keeps the host's controls. Never in the address: the shared screen's address bar is projected.
const PREFIX = "sobremesa-host:";

function stored() {  // sorted by room code, as the page writes what it knows (json sort_keys)
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i);
      if (name && name.startsWith(PREFIX)) found.push([name.slice(PREFIX.length), localStorage.getItem(name)]);
    }
  } catch (e) {}  // storage off (a private window that refuses it): the session alone holds the key
  found.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return Object.fromEntries(found);
}

export default function ({ data, parentElement, setStateValue }) {
  const box = (parentElement.host ?? parentElement).closest?.('[data-testid="stElementContainer"]');
  if (box) box.style.display = "none";  // it shows nothing: no gap in the layout either
  try {
    for (const [code, key] of Object.entries(data.keep || {})) localStorage.setItem(PREFIX + code, key);
    for (const code of data.forget || []) localStorage.removeItem(PREFIX + code);
  } catch (e) {}
  // Which rooms this browser hosts, and nothing else (no key): a teacher who also plays gets a
  // Host tab on the seat's page (pages/play.py), read from this cookie with no rerun.
  const codes = Object.keys(stored()).filter((c) => /^[A-Z]{4,6}$/.test(c)).join(".");
  document.cookie = `sobremesa_hosts=${codes}; path=/; max-age=86400; samesite=lax`;
  if (!data.ask) return;
  const keys = stored();
  const said = JSON.stringify(keys);  // the same text as Python's json.dumps(sort_keys, compact)
  if (data.known == null && said === "{}") return;  // nothing kept, nothing to tell
  if (said !== data.known) setStateValue("keys", keys);  // once: the rerun brings them as `known`
}
