/**
 * GTK4's accessible names carry two quirks (measured on gnome-calculator, Debian 12): an element without a name
 * gets its widget type instead ("GtkButton", "AdwGizmo", "HistoryView"), and a button labelled by its child is
 * named twice over ("7 7", "× ×"). Agents should see "" and "7".
 */
const TYPE_NAME = /^(?:[A-Z][a-z0-9]+){2,}$/;

export function gtk4Name(name: string): string {
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
