// The dock of a small screen (a phone upright or on its side): the current decision (auction, talon,
// trumps, kontra, the result) and my hand in one bar fixed at the bottom of the screen, so a decision
// is never below the fold and never hidden while a card is played. On a wide screen the two stay
// where table.html puts them: the hand on the felt, the controls in the side column.
import { $ } from "./names.js";

const SMALL = "(max-width: 700px), (max-height: 500px)";
let query = null;
let observer = null;

function small() {
  if (!query && window.matchMedia) {
    query = window.matchMedia(SMALL);
    query.addEventListener("change", () => placeDock($("layout").hidden));
  }
  return !!query && query.matches;
}

/**
 * The dock's height as --dock-h (and the hand's as --hand-h) on <html>: the page leaves that much room
 * below its content; the header's as --head-h: on a phone on its side the dock stops below the header.
 */
function watchHeight(dock) {
  if (observer || !window.ResizeObserver) return;
  observer = new ResizeObserver(() => {
    const header = document.getElementById("site-header");
    if (header) document.documentElement.style.setProperty("--head-h", `${Math.ceil(header.getBoundingClientRect().height)}px`);
    const h = dock.hidden ? 0 : Math.ceil(dock.getBoundingClientRect().height);
    const hand = $("hand");
    const handH = dock.hidden || !hand ? 0 : Math.ceil(hand.getBoundingClientRect().height);
    document.documentElement.style.setProperty("--dock-h", `${h}px`);
    document.documentElement.style.setProperty("--hand-h", `${handH}px`); // a phone on its side: the hand's bar only
  });
  observer.observe(dock);
  if (document.getElementById("site-header")) observer.observe(document.getElementById("site-header"));
  if ($("hand")) observer.observe($("hand"));
}

/** Put the controls and the hand into the dock on a small screen, back in their places on a wide one. */
export function placeDock(waiting) {
  const dock = $("dock");
  const hand = $("hand");
  const controls = $("controls");
  if (!dock || !hand || !controls) return;
  const docked = small() && !waiting;
  if (docked) {
    if (controls.parentElement !== dock) dock.appendChild(controls);
    if (hand.parentElement !== dock) dock.appendChild(hand);
  } else {
    if (hand.parentElement !== $("felt")) $("felt").appendChild(hand);
    if (controls.parentElement !== $("side")) $("side").insertBefore(controls, $("side").firstChild);
  }
  dock.hidden = !docked;
  document.documentElement.classList.toggle("docked", docked);
  if (!docked) {
    document.documentElement.style.setProperty("--dock-h", "0px");
    document.documentElement.style.setProperty("--hand-h", "0px");
  }
  watchHeight(dock);
}
