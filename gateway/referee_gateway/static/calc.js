// A game's score helper (POST /v1/games/<game>/calculate) as a form a score keeper fills in
// after a physical game, generated from the game's <Game>CalculateRequest schema. Errors
// go beside the field they concern.
import { call, componentSchemas, Problem } from "./api.js";
import { announce, h } from "./dom.js";
import { checkText, describeText, gameTitle, problemText, t } from "./i18n.js";
import { flattenErrors, pathOfSentence, SchemaForm, withoutLeadingPath } from "./schemaform.js";
import { scoreView } from "./score.js";

export const schemaPrefix = (game) => game.charAt(0).toUpperCase() + game.slice(1);

/** A refusal's sentence beside the field it names (read from the path the API's detail leads
 *  with, in either language, or from its words), the path itself left out there. */
function refusalBeside(error, paths, value) {
  const path = pathOfSentence(error.body.detail, paths, value);
  const text = problemText(error);
  return { [path]: [path ? withoutLeadingPath(text) : text] };
}

export async function showCalculator(main, game) {
  const [info, named] = await Promise.all([call("GET", `/v1/games/${encodeURIComponent(game)}`),
    componentSchemas()]);
  const schema = named[`${schemaPrefix(game)}CalculateRequest`];
  const form = new SchemaForm(schema, named, {});
  const result = h("div", { class: "result", "aria-live": "polite" });
  const example = (schema.examples || [])[0];

  const submit = async (event) => {
    event.preventDefault();
    form.clearErrors();
    result.replaceChildren();
    const value = form.read();
    main.dataset.busy = "true";
    try {
      const score = await call("POST", `/v1/games/${encodeURIComponent(game)}/calculate`, { body: value });
      result.replaceChildren(scoreView(score));
      announce(t("calc.scored"));
      result.querySelector("h2").setAttribute("tabindex", "-1");
      result.querySelector("h2").focus();
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      // a schema check's messages in the page's language; a refusal's sentence beside the
      // field it names (read from the English the server words it in, when it does)
      const errors = error.body.errors
        ? Object.fromEntries(Object.entries(flattenErrors(error.body.errors))
          .map(([path, messages]) => [path, messages.map(checkText)]))
        : refusalBeside(error, form.paths(), value);
      const first = form.showErrors(errors);
      announce(t("calc.fix"));
      if (first) first.focus();
    } finally {
      main.dataset.busy = "false";
    }
  };

  main.replaceChildren(...[
    h("p", {}, h("a", { href: "#" }, t("back"))),
    h("h1", {}, t("calc.title", { game: gameTitle(info) })),
    h("p", { class: "lead" }, t("calc.lead")),
    schema.description ? h("p", { class: "hint" }, describeText(schema.description)) : null,
    h("form", { class: "calc", novalidate: true, onsubmit: submit },
      form.element,
      h("div", { class: "actions" },
        h("button", { type: "submit", class: "primary" }, t("calc.submit")),
        example ? h("button", { type: "button", class: "secondary", onclick: () => {
          form.fill(example);
          result.replaceChildren();
        } }, t("calc.example")) : null,
        h("button", { type: "button", class: "secondary", onclick: () => {
          form.fill(undefined);
          result.replaceChildren();
        } }, t("calc.clear")))),
    result].filter(Boolean));
  main.dataset.screen = "calc";
  main.dataset.busy = "false";
}
