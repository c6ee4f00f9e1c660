/**
 * The agent statechart compiled into lookup tables, so an agent runs its turns without XState's
 * general interpreter on the hot path.
 *
 * XState stays the definition: this reads the machine's own state nodes, transitions, guards,
 * delays and actions, and evaluates them with XState v5's semantics for the features the agent
 * chart uses — nested states, targeted and targetless transitions (`reenter` included), guards by
 * name or `{ type, params }`, one `assign` per transition (see `transitionReducer`), and delayed
 * `after` transitions. Per event, XState computes transition domains, exit and entry sets and a
 * new snapshot object several times over; here that is done once per (state, transition) when the
 * module loads, and a transition costs a guard call or two, the assign, and one context object.
 * Anything else in the chart (entry/exit actions, invoked or spawned actors, eventless or parallel
 * states, other guard or action kinds) is refused when compiling, so the chart cannot grow a feature
 * this would silently skip. `test/machine/compiled-chart.test.ts` checks both agree, event by event.
 */
import type { AnyStateMachine, StateValue } from 'xstate';
import type { AgentContext, AgentMachineEvent } from './machine-types.js';

/** A transition's single `assign`, as a plain function: the context's changes for `event`. */
export type ChartReducer = (context: AgentContext, event: AgentMachineEvent) => Partial<AgentContext>;

/** A delayed (`after`) transition's timer: when a state is entered it is armed, when it is exited cancelled. */
export interface ChartTimer {
  /** XState's name for the event the timer delivers (`xstate.after.<delay>.<state id>`). */
  readonly eventType: string;
  /** The delay in ms, from the context the state was entered with and the event that entered it. */
  delay(context: AgentContext, event: AgentMachineEvent): number;
}

/** A candidate transition of a leaf for one event type, with what taking it does. */
export interface ChartTransition {
  /** Undefined: always enabled. */
  readonly guard: ((context: AgentContext, event: AgentMachineEvent) => boolean) | undefined;
  readonly reduce: ChartReducer | undefined;
  /** The leaf it ends in; undefined for a targetless transition (the state stays). */
  readonly target: ChartLeaf | undefined;
  /** Timers of the states it exits (to cancel) and enters (to arm). */
  readonly cancels: readonly ChartTimer[];
  readonly arms: readonly ChartTimer[];
}

/** A leaf (atomic) state: its state value and, per event type, its candidate transitions in XState's order. */
export interface ChartLeaf {
  readonly id: string;
  readonly value: StateValue;
  readonly transitions: ReadonlyMap<string, readonly ChartTransition[]>;
}

/** The compiled chart: its leaves, found by state value. */
export interface CompiledChart {
  /** The leaf a state value names (a compound state's value means its initial leaf); undefined for none. */
  leafOf(value: StateValue): ChartLeaf | undefined;
}

/** What the compiler needs of an XState state node (the public shape of `StateNode`). */
interface Node {
  readonly id: string;
  readonly key: string;
  readonly type: string;
  readonly parent?: Node | undefined;
  readonly states: Record<string, Node>;
  readonly initial?: { readonly target: readonly Node[] } | undefined;
  readonly transitions: Map<string, readonly TransitionDef[]>;
  readonly after: readonly { readonly eventType: string; readonly delay: string | number }[];
  readonly entry: readonly unknown[];
  readonly exit: readonly unknown[];
  readonly invoke: readonly unknown[];
  readonly always?: readonly unknown[] | undefined;
}

interface TransitionDef {
  readonly source: Node;
  readonly target?: readonly Node[] | undefined;
  readonly reenter: boolean;
  readonly guard?: unknown;
  readonly actions: readonly unknown[];
}

type Implementation = (args: { context: AgentContext; event: AgentMachineEvent }, params: unknown) => unknown;

/**
 * Compiles `machine` (the agent statechart). `reducerOf` gives the plain function of a transition's
 * action (undefined for an action it does not know, which is refused).
 */
export function compileChart(machine: AnyStateMachine, reducerOf: (action: unknown) => ChartReducer | undefined): CompiledChart {
  const guards = machine.implementations.guards as unknown as Record<string, Implementation>;
  const delays = machine.implementations.delays as unknown as Record<string, Implementation>;
  const root = machine.root as unknown as Node;
  const refuse = (node: Node, what: string): never => {
    throw new Error(`compiled chart: ${node.id} uses ${what}, which the agent's chart runner does not support`);
  };

  const timersOf = new Map<Node, ChartTimer[]>();
  const leaves = new Map<Node, { id: string; value: StateValue; transitions: Map<string, ChartTransition[]> }>();
  const visit = (node: Node): void => {
    // XState writes each `after` as a raise on entry and a cancel on exit: those are the timers below.
    const only = (actions: readonly unknown[], type: string) =>
      actions.length === node.after.length && actions.every((a) => (a as { type?: unknown }).type === type);
    if (!only(node.entry, 'xstate.raise') || !only(node.exit, 'xstate.cancel')) refuse(node, 'entry or exit actions');
    if (node.invoke.length > 0) refuse(node, 'invoked actors');
    if ((node.always?.length ?? 0) > 0) refuse(node, 'eventless transitions');
    if (node.type !== 'atomic' && node.type !== 'compound') refuse(node, `a ${node.type} state`);
    timersOf.set(
      node,
      node.after.map(({ eventType, delay }) => ({ eventType, delay: delayOf(node, delay) })),
    );
    if (node.type === 'atomic') leaves.set(node, { id: node.id, value: stateValueOf(node), transitions: new Map() });
    for (const child of Object.values(node.states)) visit(child);
  };
  const delayOf = (node: Node, delay: string | number): ChartTimer['delay'] => {
    if (typeof delay === 'number') return () => delay;
    const fn = delays[delay];
    if (typeof fn !== 'function') return refuse(node, `the delay ${delay} without an implementation`);
    return (context, event) => Number(fn({ context, event }, undefined));
  };
  const guardOf = (node: Node, guard: unknown): ChartTransition['guard'] => {
    if (guard === undefined) return undefined;
    const type = typeof guard === 'string' ? guard : typeof guard === 'object' && guard !== null ? (guard as { type?: unknown }).type : undefined;
    const fn = typeof type === 'string' ? guards[type] : undefined;
    if (fn === undefined) return refuse(node, 'a guard that is neither a name nor { type, params }');
    const params = typeof guard === 'object' ? (guard as { params?: unknown }).params : undefined;
    return (context, event) => fn({ context, event }, params) === true;
  };
  const reducerOfActions = (node: Node, actions: readonly unknown[]): ChartReducer | undefined => {
    if (actions.length === 0) return undefined;
    const reduce = actions.length === 1 ? reducerOf(actions[0]) : undefined;
    return reduce ?? refuse(node, 'actions other than one assign of the agent machine');
  };

  visit(root);
  const leafBelow = (node: Node): ChartLeaf => {
    let at = node;
    while (at.type === 'compound') {
      const initial = at.initial?.target[0];
      if (initial === undefined) return refuse(at, 'a compound state without an initial state');
      at = initial;
    }
    return leaves.get(at) ?? refuse(at, 'an unknown leaf');
  };

  for (const [leafNode, leaf] of leaves) {
    // XState looks from the leaf up to the root: the deepest state with an enabled transition wins.
    for (const node of [leafNode, ...ancestorsOf(leafNode)]) {
      for (const [eventType, definitions] of node.transitions) {
        if (eventType.includes('*')) refuse(node, `the wildcard event ${eventType}`);
        const candidates = leaf.transitions.get(eventType) ?? [];
        for (const definition of definitions) {
          const target = definition.target?.[0];
          if ((definition.target?.length ?? 0) > 1) refuse(node, 'a transition with several targets');
          const { exited, entered } = target === undefined ? { exited: [], entered: [] } : exitAndEntry(leafNode, definition, target);
          candidates.push({
            guard: guardOf(node, definition.guard),
            reduce: reducerOfActions(node, definition.actions),
            target: target === undefined ? undefined : leafBelow(target),
            cancels: exited.flatMap((n) => timersOf.get(n) ?? []),
            arms: entered.flatMap((n) => timersOf.get(n) ?? []),
          });
        }
        leaf.transitions.set(eventType, candidates);
      }
    }
  }

  const byValue = new Map<string, ChartLeaf>();
  for (const [node, leaf] of leaves) {
    byValue.set(valueKey(leaf.value), leaf);
    // A compound state's own value (`"thinking"`) means its initial leaf, as `resolveState` reads it.
    for (const ancestor of ancestorsOf(node)) if (ancestor !== root) byValue.set(valueKey(stateValueOf(ancestor)), leafBelow(ancestor));
  }
  return { leafOf: (value) => byValue.get(valueKey(value)) };
}

/** A state value as a map key: a top-level name as it is (what agents are created in), a nested value as JSON. */
function valueKey(value: StateValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Proper ancestors, nearest first. */
function ancestorsOf(node: Node): Node[] {
  const out: Node[] = [];
  for (let at = node.parent; at !== undefined; at = at.parent) out.push(at);
  return out;
}

function isDescendant(node: Node, ancestor: Node): boolean {
  return ancestorsOf(node).includes(ancestor);
}

/** The state value of `node` as XState writes it: `"idle"`, `{ thinking: "streaming" }`. */
function stateValueOf(node: Node): StateValue {
  let value: StateValue = node.key;
  for (let at = node.parent; at?.parent !== undefined; at = at.parent) value = { [at.key]: value };
  return value;
}

/**
 * The states a transition from `leaf` exits and enters, as XState v5 computes them: its domain is
 * its source when it targets a descendant without `reenter`, else the least common compound
 * ancestor of its source and target; every active state below the domain is exited, and the target
 * (with its ancestors below the domain and its initial descendants) entered.
 */
function exitAndEntry(leaf: Node, definition: TransitionDef, target: Node): { exited: Node[]; entered: Node[] } {
  const { source } = definition;
  const inside = !definition.reenter && (target === source || isDescendant(target, source));
  const domain = inside ? source : ancestorsOf(target).find((a) => isDescendant(source, a));
  if (domain === undefined) throw new Error(`compiled chart: a transition from ${source.id} to ${target.id} has no domain (it targets the root)`);
  const active = [leaf, ...ancestorsOf(leaf)];
  const exited = active.filter((n) => isDescendant(n, domain));
  const entered: Node[] = [];
  for (let at: Node | undefined = target; at !== undefined && at !== domain; at = at.parent) entered.unshift(at);
  for (let at = target; at.type === 'compound'; ) {
    const initial = at.initial?.target[0];
    if (initial === undefined) break;
    entered.push(initial);
    at = initial;
  }
  return { exited, entered };
}
