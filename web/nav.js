// Navigation without a reload: pages ask for another path here, and the
// router (router.js, which imports the pages) says how a path is shown.
// Kept apart from the router so that no page imports the router back.

let show = () => {};

/** Sets the function that shows the page of the current address (the router's). */
export function onNavigate(route) {
  show = route;
}

/** Shows `path`, adding it to the history (or replacing the current entry). */
export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, '', path); else history.pushState(null, '', path);
  show();
}
