/**
 * A list that draws only the rows in view (plus a few), so a timeline of thousands of events
 * scrolls smoothly. Rows have one fixed height. It sticks to the bottom while the user is there.
 */
import type { ComponentChild } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** Props of {@link VirtualList}. */
export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  /** Redraw when this changes (rows are mutated in place). */
  version: number;
  render: (item: T, index: number) => ComponentChild;
  class?: string;
}

export function VirtualList<T>({ items, rowHeight, version, render, class: className }: VirtualListProps<T>) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(400);
  const stick = useRef(true);
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useLayoutEffect(() => {
    const el = box.current;
    if (el !== null && stick.current) el.scrollTop = el.scrollHeight;
  }, [items.length, version]);
  const first = Math.max(0, Math.floor(top / rowHeight) - 10);
  const last = Math.min(items.length, Math.ceil((top + height) / rowHeight) + 10);
  const rows: ComponentChild[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} class="vrow" style={{ position: 'absolute', top: `${i * rowHeight}px`, height: `${rowHeight}px`, left: 0, right: 0 }}>
        {render(items[i] as T, i)}
      </div>,
    );
  }
  return (
    <div
      ref={box}
      class={`vlist ${className ?? ''}`}
      onScroll={(e) => {
        const el = e.currentTarget;
        setTop(el.scrollTop);
        stick.current = el.scrollTop + el.clientHeight >= el.scrollHeight - rowHeight * 2;
      }}
    >
      <div style={{ position: 'relative', height: `${items.length * rowHeight}px` }}>{rows}</div>
    </div>
  );
}
