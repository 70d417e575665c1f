import { THEME_CSS } from '../theme.js';
import { callJson, KeyNeeded, setKey } from './api.js';
import { mountLive } from './live.js';
import { mountPlayground } from './playground.js';

/**
 * The console page: two tabs (Playground, Live traffic), a key form when the server wants a
 * client key, and the theme. The live feed is connected only while its tab is shown.
 */

interface Info {
  readonly llm: boolean;
}

const style = document.createElement('style');
style.textContent = THEME_CSS;
document.head.append(style);

const status = document.querySelector<HTMLElement>('#status')!;
const keyForm = document.querySelector<HTMLFormElement>('#key-form')!;
const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role=tab]')];

function onError(error: unknown): void {
  if (error instanceof KeyNeeded || (error as Error).name === 'KeyNeeded') {
    keyForm.classList.remove('hidden');
    document.querySelector<HTMLInputElement>('#key-input')!.focus();
    status.textContent = 'a client key is needed';
    return;
  }
  status.textContent = `error: ${(error as Error).message}`;
}

async function start(): Promise<void> {
  let info: Info;
  try {
    info = await callJson<Info>('/console/api/info');
  } catch (error) {
    onError(error);
    return;
  }
  keyForm.classList.add('hidden');
  status.textContent = info.llm ? 'LLM check configured' : 'local decisions only (no LLM)';
  mountPlayground(document.querySelector<HTMLElement>('#page-playground')!, info.llm, onError);
  const live = mountLive(document.querySelector<HTMLElement>('#page-live')!, onError);
  const show = (tab: HTMLButtonElement, focus: boolean) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute('aria-controls')!)!.hidden = !selected;
    }
    if (focus) tab.focus();
    if (tab.id === 'tab-live') live.start();
    else live.stop();
    history.replaceState(null, '', tab.id === 'tab-live' ? '#live' : '#playground');
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => show(tab, false));
    // Arrow keys move between tabs (the WAI-ARIA tabs pattern); Tab moves into the page.
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (step !== 0) show(tabs[(i + step + tabs.length) % tabs.length]!, true);
      else if (event.key === 'Home') show(tabs[0]!, true);
      else if (event.key === 'End') show(tabs[tabs.length - 1]!, true);
    });
  });
  show(location.hash === '#live' ? tabs[1]! : tabs[0]!, false);
}

keyForm.addEventListener('submit', (event) => {
  event.preventDefault();
  setKey(document.querySelector<HTMLInputElement>('#key-input')!.value.trim());
  void start();
});

void start();
