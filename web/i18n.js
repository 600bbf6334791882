// English and Spanish strings. The language comes from the browser unless
// the user picked one (kept in localStorage).

const STRINGS = {
  en: {
    'nav.new': 'New game', 'nav.games': 'Games', 'nav.rules': 'Rules',
    'new.title': 'New game', 'new.mode': 'How to play',
    'mode.engine': 'Against the computer', 'mode.hotseat': 'Two players, this device',
    'mode.online': 'Online with a friend',
    'new.variant': 'Variant', 'new.holes': 'Holes per row', 'new.seeds': 'Seeds per hole',
    'new.direction': 'Sowing direction', 'dir.fixed': 'Counter-clockwise only',
    'dir.per_player': 'Each player chooses once', 'dir.per_move': 'Chosen at every move',
    'new.opening': 'Two-hole opening', 'new.skip_origin': 'Skip the emptied hole on long laps',
    'new.repetition': 'Endless game shared', 'rep.even': 'Equally', 'rep.own_row': 'Each keeps own row',
    'new.capture_side': 'Casas captured', 'cap.any': 'In either row', 'cap.opponent': "In the opponent's row only",
    'new.match': 'Play a match (rounds)', 'new.level': 'Computer level', 'new.side': 'Your side',
    'new.options': 'More options', 'new.start': 'Start game',
    'new.upload': 'Open a game record', 'new.upload_hint': 'Continue a downloaded record (.txt) on this device.',
    'side.south': 'South', 'side.north': 'North',
    'variant.I': 'Hoyito I — casas anywhere', 'variant.II': 'Hoyito II — chain, extra turn',
    'variant.III': 'Hoyito III — landing hole, extra turn',
    'games.title': 'Games', 'games.none': 'No games yet.', 'games.open': 'Open',
    'games.game': 'Game', 'games.mode': 'Mode', 'games.rules': 'Rules', 'games.status': 'Status',
    'games.score': 'Score', 'games.updated': 'Last move',
    'status.waiting': 'waiting for a player', 'status.playing': 'playing', 'status.over': 'over',
    'game.you': 'You', 'game.engine': 'Computer (level {level})', 'game.opponent': 'Opponent',
    'game.turn': "{name} to move", 'game.your_turn': 'Your move', 'game.thinking': 'The computer is thinking…',
    'game.sowing': '{name} sows…', 'game.sowing.you': 'Sowing your move…',
    'game.replay': 'Step {seq} of {total}',
    'game.captured': 'captured', 'game.reserve': 'reserve', 'game.round': 'Round {round}',
    'game.watching': 'You are watching this game.',
    'game.invite': 'Send this link to your opponent:', 'game.copy': 'Copy', 'game.copied': 'Link copied',
    'game.waiting': 'Waiting for the second player to join…',
    'game.joined': 'You joined the game as {side}.', 'game.join_failed': 'Could not join: {error}',
    'game.undo': 'Undo', 'game.hint': 'Hint', 'game.download': 'Download record',
    'game.skip': 'Skip animation', 'game.speed': 'Speed',
    'speed.slow': 'Slow', 'speed.normal': 'Normal', 'speed.fast': 'Fast', 'speed.instant': 'Instant',
    'game.direction': 'Direction', 'dir.L': '↺ Left (L)', 'dir.R': '↻ Right (R)',
    'game.moves': 'Moves', 'game.live': 'Live', 'game.first': 'Start', 'game.prev': 'Back', 'game.next': 'Forward',
    'game.viewing': 'Viewing step {seq} of {total}', 'game.start_pos': 'Start',
    'game.illegal': 'That hole cannot be played now.', 'game.not_your_turn': 'It is not your turn.',
    'game.pick_second': 'Opening: now pick the second hole (Esc to cancel).',
    'game.hint_is': 'Hint: play hole {move}.',
    'game.passes': '{name} has no move and passes.', 'game.passes.you': 'You have no move and pass.',
    'game.extra': '{name} captured and moves again.', 'game.extra.you': 'You captured and move again.',
    'game.over': 'Game over', 'game.wins': '{name} wins', 'game.wins.you': 'You win', 'game.draw': 'Draw',
    'game.score': 'Score', 'game.reason': 'Reason',
    'reason.last_four': 'the last four seeds were awarded', 'reason.exhausted': 'no seeds left',
    'reason.repetition': 'a position repeated three times', 'reason.no_moves': 'no player could move',
    'game.next_round': 'Start next round', 'game.round_over': 'Round {round} is over',
    'game.match_over': 'Match over after round {rounds}: {name} wins',
    'game.match_over.you': 'Match over after round {rounds}: you win',
    'game.match_draw': 'Match over after round {rounds}: draw',
    'game.rounds': 'Rounds', 'game.lap': 'Lap {lap}', 'game.long_sowing': 'A long sowing: {laps} laps.',
    'game.reconnecting': 'Reconnecting…', 'game.keys': 'Keys: 1–9 (0 = 10) play a hole · ←/→ choose · Enter plays · L/R direction · U undo · H hint · Esc skip',
    'game.not_found': 'This game does not exist.',
    'notfound.title': 'Page not found', 'notfound.text': 'There is no page at {path}.',
    'notfound.link': 'Start a new game',
    'rules.title': 'Rules', 'error': 'Error: {error}',
    'lang.switch': 'Language',
  },
  es: {
    'nav.new': 'Nueva partida', 'nav.games': 'Partidas', 'nav.rules': 'Reglas',
    'new.title': 'Nueva partida', 'new.mode': 'Cómo jugar',
    'mode.engine': 'Contra la computadora', 'mode.hotseat': 'Dos jugadores, este dispositivo',
    'mode.online': 'En línea con un amigo',
    'new.variant': 'Variante', 'new.holes': 'Casitas por fila', 'new.seeds': 'Semillas por casita',
    'new.direction': 'Dirección de siembra', 'dir.fixed': 'Solo antihoraria',
    'dir.per_player': 'Cada jugador elige una vez', 'dir.per_move': 'Se elige en cada jugada',
    'new.opening': 'Apertura con dos casitas', 'new.skip_origin': 'Saltar la casita vaciada en vueltas largas',
    'new.repetition': 'Partida sin fin repartida', 'rep.even': 'A partes iguales', 'rep.own_row': 'Cada uno su fila',
    'new.capture_side': 'Casas capturadas', 'cap.any': 'En cualquier fila', 'cap.opponent': 'Solo en la fila rival',
    'new.match': 'Jugar un match (rondas)', 'new.level': 'Nivel de la computadora', 'new.side': 'Tu lado',
    'new.options': 'Más opciones', 'new.start': 'Empezar',
    'new.upload': 'Abrir un registro de partida', 'new.upload_hint': 'Continúa un registro descargado (.txt) en este dispositivo.',
    'side.south': 'Sur', 'side.north': 'Norte',
    'variant.I': 'Hoyito I — casas en cualquier lugar', 'variant.II': 'Hoyito II — cadena, turno extra',
    'variant.III': 'Hoyito III — casita final, turno extra',
    'games.title': 'Partidas', 'games.none': 'Todavía no hay partidas.', 'games.open': 'Abrir',
    'games.game': 'Partida', 'games.mode': 'Modo', 'games.rules': 'Reglas', 'games.status': 'Estado',
    'games.score': 'Marcador', 'games.updated': 'Última jugada',
    'status.waiting': 'esperando jugador', 'status.playing': 'en juego', 'status.over': 'terminada',
    'game.you': 'Tú', 'game.engine': 'Computadora (nivel {level})', 'game.opponent': 'Rival',
    'game.turn': 'Juega {name}', 'game.your_turn': 'Te toca', 'game.thinking': 'La computadora está pensando…',
    'game.sowing': 'Siembra {name}…', 'game.sowing.you': 'Sembrando tu jugada…',
    'game.replay': 'Paso {seq} de {total}',
    'game.captured': 'capturadas', 'game.reserve': 'reserva', 'game.round': 'Ronda {round}',
    'game.watching': 'Estás mirando esta partida.',
    'game.invite': 'Envía este enlace a tu rival:', 'game.copy': 'Copiar', 'game.copied': 'Enlace copiado',
    'game.waiting': 'Esperando que entre el segundo jugador…',
    'game.joined': 'Entraste en la partida como {side}.', 'game.join_failed': 'No se pudo entrar: {error}',
    'game.undo': 'Deshacer', 'game.hint': 'Pista', 'game.download': 'Descargar registro',
    'game.skip': 'Saltar animación', 'game.speed': 'Velocidad',
    'speed.slow': 'Lenta', 'speed.normal': 'Normal', 'speed.fast': 'Rápida', 'speed.instant': 'Instantánea',
    'game.direction': 'Dirección', 'dir.L': '↺ Izquierda (L)', 'dir.R': '↻ Derecha (R)',
    'game.moves': 'Jugadas', 'game.live': 'En vivo', 'game.first': 'Inicio', 'game.prev': 'Atrás', 'game.next': 'Adelante',
    'game.viewing': 'Viendo el paso {seq} de {total}', 'game.start_pos': 'Inicio',
    'game.illegal': 'Esa casita no se puede jugar ahora.', 'game.not_your_turn': 'No es tu turno.',
    'game.pick_second': 'Apertura: elige ahora la segunda casita (Esc para cancelar).',
    'game.hint_is': 'Pista: juega la casita {move}.',
    'game.passes': '{name} no tiene jugada y pasa.', 'game.passes.you': 'No tienes jugada y pasas.',
    'game.extra': '{name} capturó y vuelve a jugar.', 'game.extra.you': 'Capturaste y vuelves a jugar.',
    'game.over': 'Fin de la partida', 'game.wins': 'Gana {name}', 'game.wins.you': 'Ganaste', 'game.draw': 'Empate',
    'game.score': 'Marcador', 'game.reason': 'Motivo',
    'reason.last_four': 'se adjudicaron las cuatro últimas semillas', 'reason.exhausted': 'no quedan semillas',
    'reason.repetition': 'una posición se repitió tres veces', 'reason.no_moves': 'ningún jugador podía jugar',
    'game.next_round': 'Empezar la siguiente ronda', 'game.round_over': 'Terminó la ronda {round}',
    'game.match_over': 'Fin del match tras la ronda {rounds}: gana {name}',
    'game.match_over.you': 'Fin del match tras la ronda {rounds}: ganaste',
    'game.match_draw': 'Fin del match tras la ronda {rounds}: empate',
    'game.rounds': 'Rondas', 'game.lap': 'Vuelta {lap}', 'game.long_sowing': 'Una siembra larga: {laps} vueltas.',
    'game.reconnecting': 'Reconectando…', 'game.keys': 'Teclas: 1–9 (0 = 10) juegan una casita · ←/→ eligen · Intro juega · L/R dirección · U deshacer · H pista · Esc saltar',
    'game.not_found': 'Esta partida no existe.',
    'notfound.title': 'Página no encontrada', 'notfound.text': 'No hay ninguna página en {path}.',
    'notfound.link': 'Empezar una partida nueva',
    'rules.title': 'Reglas', 'error': 'Error: {error}',
    'lang.switch': 'Idioma',
  },
};

let lang = pick();

function pick() {
  const saved = localStorage.getItem('hoyito.lang');
  if (saved && STRINGS[saved]) return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const l of langs) {
    const base = String(l).toLowerCase().slice(0, 2);
    if (STRINGS[base]) return base;
  }
  return 'en';
}

/** The current language code. */
export function getLang() {
  return lang;
}

/** Switches the language and remembers the choice. */
export function setLang(l) {
  if (!STRINGS[l]) return;
  lang = l;
  localStorage.setItem('hoyito.lang', l);
  document.documentElement.lang = l;
}

/**
 * The string for `key`, with `{name}` placeholders filled from `vars`.
 * Sentences about a player have a second form for the reader, `key.you`
 * ("You win", not "You wins"); see `game/state.js` `say`.
 */
export function t(key, vars = {}) {
  const s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** Fills every element with a data-i18n attribute. */
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}
