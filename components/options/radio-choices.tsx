import type { ComponentChildren } from 'preact';

/** One option of a {@link RadioChoices} group. */
interface Choice<Id extends string> {
  id: Id;
  label: string;
  /** Said under the option, and read with it (aria-describedby). */
  hint: string;
}

/** A group of radio options with a hint under each, as the options page shows its choices. */
export function RadioChoices<Id extends string>(props: {
  /** The radio group's name; also prefixes the element ids. */
  name: string;
  legend: ComponentChildren;
  choices: readonly Choice<Id>[];
  value: Id;
  onChange: (id: Id) => void;
  children?: ComponentChildren;
}) {
  return (
    <fieldset class="choices">
      {props.legend}
      {props.choices.map((choice) => (
        <div class="choice" key={choice.id}>
          <input
            type="radio"
            id={`${props.name}-${choice.id}`}
            name={props.name}
            value={choice.id}
            checked={props.value === choice.id}
            aria-describedby={`${props.name}-${choice.id}-hint`}
            onChange={() => props.onChange(choice.id)}
          />
          <label for={`${props.name}-${choice.id}`}>{choice.label}</label>
          <p class="hint" id={`${props.name}-${choice.id}-hint`}>
            {choice.hint}
          </p>
        </div>
      ))}
      {props.children}
    </fieldset>
  );
}
