/**
 * GTK4's accessible names carry two quirks (measured on gnome-calculator, Debian 12): an element without a name
 * gets its widget type instead ("GtkButton", "AdwGizmo", "HistoryView"), and a button labelled by its child is
 * named twice over ("7 7", "× ×"). Agents should see "" and "7".
 */
const TYPE_NAME = /^(?:[A-Z][a-z0-9]+){2,}$/;

function gtk4Name(name: string): string {
  if (TYPE_NAME.test(name)) return '';
  const half = (name.length - 1) / 2;
  if (
    Number.isInteger(half) &&
    half > 0 &&
    name[half] === ' ' &&
    name.slice(0, half) === name.slice(half + 1)
  ) {
    return name.slice(0, half);
  }
  return name;
}

/**
 * Chromium's tab names gain the memory their page uses while the pointer rests on them ("Order form - Memory
 * usage - 30.1 MB"): a path by the tab's name must outlive the pointer moving away, so that part is left out.
 */
const TAB_MEMORY = / - Memory usage - [\d.,]+ [KMGT]?B$/;

/** The name an agent sees for an element of the app, from the name the app gives it. */
export function elementName(name: string, role: string, gtk4: boolean): string {
  if (gtk4) return gtk4Name(name);
  return role === 'page tab' ? name.replace(TAB_MEMORY, '') : name;
}
