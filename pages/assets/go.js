// Sends the tab to another address of this server, once (the laptop's renewed key arrives through a
// one-time link the guard swaps for the cookie: pages/home.py). Only a path of this server.
export default function ({ data }) {
  const href = data && data.href;
  if (typeof href === "string" && href.startsWith("/") && !href.startsWith("//")) location.replace(href);
}
