/** Building the pages' DOM without innerHTML (nothing from the server is ever parsed as HTML). */

type Child = Node | string | number | null | undefined | false
type Attributes = Record<string, string | number | boolean | EventListener | undefined>

export const h = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Array<Child | ReadonlyArray<Child>>): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue
    if (typeof value === "function") element.addEventListener(name.slice(2).toLowerCase(), value)
    else if (value === true) element.setAttribute(name, "")
    else element.setAttribute(name, String(value))
  }
  append(element, children)
  return element
}

const append = (parent: Element, children: ReadonlyArray<Child | ReadonlyArray<Child>>) => {
  for (const child of children) {
    if (Array.isArray(child)) append(parent, child)
    else if (child instanceof Node) parent.append(child)
    else if (child !== null && child !== undefined && child !== false) parent.append(String(child))
  }
}

/** Replaces an element's content. */
export const fill = (parent: Element, ...children: Array<Child | ReadonlyArray<Child>>): void => {
  parent.replaceChildren()
  append(parent, children)
}

/** A UTC time as `2026-11-25 19:04 UTC`. */
export const utcTime = (iso: string | null): string => (iso === null ? "never" : `${iso.slice(0, 16).replace("T", " ")} UTC`)

/** Copies text; falls back to selecting it in `field` for the user to copy. Says what happened. */
export const copyText = async (text: string, field?: HTMLInputElement): Promise<string> => {
  try {
    await navigator.clipboard.writeText(text)
    return "Copied to the clipboard"
  } catch {
    field?.select()
    return "Select the text and copy it (the browser refused clipboard access)"
  }
}

/** A modal question with two buttons; resolves true when confirmed (Escape or Cancel: false). */
export const confirmDialog = (question: string, confirmLabel: string): Promise<boolean> =>
  new Promise((resolve) => {
    const dialog = h("dialog", { class: "confirm", "aria-label": question })
    const close = (answer: boolean) => () => {
      dialog.close()
      dialog.remove()
      resolve(answer)
    }
    fill(
      dialog,
      h("p", {}, question),
      h("div", { class: "actions" },
        h("button", { type: "button", onclick: close(false) }, "Cancel"),
        h("button", { type: "button", class: "danger", onclick: close(true) }, confirmLabel))
    )
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault()
      close(false)()
    })
    document.body.append(dialog)
    dialog.showModal()
  })
