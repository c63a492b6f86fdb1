// Webview entry: mounts the React app into the page the extension serves.
import { createRoot } from 'react-dom/client';
import '@vscode/codicons/dist/codicon.css';
import './main.css';
import { App } from './App';

const container = document.getElementById('root');
if (container) createRoot(container).render(<App />);
