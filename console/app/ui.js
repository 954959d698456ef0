// The one place the page binds htm to Preact, so every view writes html`...` the same way.
import { h, render } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
export { render };
export { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
