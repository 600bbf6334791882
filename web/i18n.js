// The strings in English, Spanish and Haitian Kreyòl, one catalogue per
// language, each with every key. The language comes from the browser's
// settings the first time (navigator.languages), then from the user's pick
// (kept in localStorage).

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
    'new.where': 'Where the game runs', 'where.device': 'On this device (works offline)', 'where.server': 'On the server',
    'offline.needed': 'This needs a connection to the server.',
    'offline.note': 'No connection to the server: games against the computer and two-player games run on this device; online games and opening records need a connection.',
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
    'game.direction': 'Direction', 'dir.L': '↺ Counter-clockwise (L)', 'dir.R': '↻ Clockwise (R)',
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
    'game.resign': 'Resign', 'game.resign_confirm': 'Resign? The game (or the whole match) ends now and the other player wins.',
    'game.resigned': '{name} resigned', 'game.resigned.you': 'You resigned',
    'game.rounds': 'Rounds', 'game.lap': 'Lap {lap}', 'game.long_sowing': 'A long sowing: {laps} laps.',
    'game.reconnecting': 'Reconnecting…', 'game.keys': 'Keys: 1–9 (0 = 10) play a hole · ←/→ choose · Enter plays · L/R direction · U undo · H hint · Esc skip',
    'game.not_found': 'This game does not exist.',
    'notfound.title': 'Page not found', 'notfound.text': 'There is no page at {path}.',
    'notfound.link': 'Start a new game',
    'rules.title': 'Rules', 'error': 'Error: {error}',
    'lang.switch': 'Language', 'nav.label': 'Main',
    'dir.ccw': 'counter-clockwise', 'dir.cw': 'clockwise',
    'board.label': 'Hoyito board', 'board.hole': '{side} hole {num}, seeds: {count}',
    'board.closed': '{side} hole {num}, closed', 'board.last_from': 'the last move started here',
    'board.last_capture': 'captured by the last move',
    'moves.captured': 'captured {n}', 'moves.again': 'moves again', 'moves.dir': 'sown {dir}',
    'say.move': '{name} played {move}.', 'say.move.you': 'You played {move}.', 'say.captured': 'Captured {n}.',
    'title.your_move': '● Your move', 'games.match': 'match',
  },
  es: {
    'nav.new': 'Nueva partida', 'nav.games': 'Partidas', 'nav.rules': 'Reglas',
    'new.title': 'Nueva partida', 'new.mode': 'Cómo jugar',
    'mode.engine': 'Contra la computadora', 'mode.hotseat': 'Dos jugadores, este dispositivo',
    'mode.online': 'En línea con un amigo',
    'new.variant': 'Variante', 'new.holes': 'Casitas por fila', 'new.seeds': 'Semillas por casita',
    'new.direction': 'Dirección de siembra', 'dir.fixed': 'Solo en sentido antihorario',
    'dir.per_player': 'Cada jugador elige una vez', 'dir.per_move': 'Se elige en cada jugada',
    'new.opening': 'Apertura con dos casitas', 'new.skip_origin': 'Saltar la casita vaciada en vueltas largas',
    'new.repetition': 'Partida sin fin repartida', 'rep.even': 'A partes iguales', 'rep.own_row': 'Cada uno su fila',
    'new.capture_side': 'Casas capturadas', 'cap.any': 'En cualquier fila', 'cap.opponent': 'Solo en la fila rival',
    'new.match': 'Jugar un match (rondas)', 'new.level': 'Nivel de la computadora', 'new.side': 'Tu lado',
    'new.options': 'Más opciones', 'new.start': 'Empezar',
    'new.upload': 'Abrir un registro de partida', 'new.upload_hint': 'Continúa un registro descargado (.txt) en este dispositivo.',
    'new.where': 'Dónde se juega', 'where.device': 'En este dispositivo (funciona sin conexión)', 'where.server': 'En el servidor',
    'offline.needed': 'Esto necesita conexión con el servidor.',
    'offline.note': 'Sin conexión con el servidor: las partidas contra la computadora y de dos jugadores se juegan en este dispositivo; las partidas en línea y abrir registros necesitan conexión.',
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
    'game.direction': 'Dirección', 'dir.L': '↺ Antihorario (L)', 'dir.R': '↻ Horario (R)',
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
    'game.resign': 'Abandonar', 'game.resign_confirm': '¿Abandonar? La partida (o todo el match) termina ahora y gana el otro jugador.',
    'game.resigned': '{name} abandonó', 'game.resigned.you': 'Abandonaste',
    'game.rounds': 'Rondas', 'game.lap': 'Vuelta {lap}', 'game.long_sowing': 'Una siembra larga: {laps} vueltas.',
    'game.reconnecting': 'Reconectando…', 'game.keys': 'Teclas: 1–9 (0 = 10) juegan una casita · ←/→ eligen · Intro juega · L/R dirección · U deshacer · H pista · Esc saltar',
    'game.not_found': 'Esta partida no existe.',
    'notfound.title': 'Página no encontrada', 'notfound.text': 'No hay ninguna página en {path}.',
    'notfound.link': 'Empezar una partida nueva',
    'rules.title': 'Reglas', 'error': 'Error: {error}',
    'lang.switch': 'Idioma', 'nav.label': 'Principal',
    'dir.ccw': 'antihorario', 'dir.cw': 'horario',
    'board.label': 'Tablero de Hoyito', 'board.hole': '{side}, casita {num}, semillas: {count}',
    'board.closed': '{side}, casita {num}, cerrada', 'board.last_from': 'aquí empezó la última jugada',
    'board.last_capture': 'capturada en la última jugada',
    'moves.captured': 'capturó {n}', 'moves.again': 'vuelve a jugar', 'moves.dir': 'sembrada en sentido {dir}',
    'say.move': '{name} jugó {move}.', 'say.move.you': 'Jugaste {move}.', 'say.captured': 'Capturó {n}.',
    'title.your_move': '● Te toca', 'games.match': 'match',
  },
  ht: {
    'nav.new': 'Nouvo pati', 'nav.games': 'Pati yo', 'nav.rules': 'Règ yo',
    'new.title': 'Nouvo pati', 'new.mode': 'Kijan pou jwe',
    'mode.engine': 'Kont òdinatè a', 'mode.hotseat': 'De moun, sou aparèy sa a',
    'mode.online': 'Sou entènèt ak yon zanmi',
    'new.variant': 'Fason pou jwe', 'new.holes': 'Twou nan chak ranje', 'new.seeds': 'Grenn nan chak twou',
    'new.direction': 'Sans pou simen', 'dir.fixed': 'Sèlman kont zegwi mont',
    'dir.per_player': 'Chak jwè chwazi yon sèl fwa', 'dir.per_move': 'Chwazi nan chak kou',
    'new.opening': 'Kòmanse ak de twou', 'new.skip_origin': 'Sote twou ki fèk vide a lè simen an fè tout wonn nan',
    'new.repetition': 'Pati ki pa janm fini: separe', 'rep.even': 'Menm kantite', 'rep.own_row': 'Chak moun pran ranje pa l',
    'new.capture_side': 'Kay yo pran', 'cap.any': 'Nan nenpòt ranje', 'cap.opponent': 'Sèlman nan ranje lòt jwè a',
    'new.match': 'Jwe yon match (plizyè wonn)', 'new.level': 'Nivo òdinatè a', 'new.side': 'Bò pa w',
    'new.options': 'Plis chwa', 'new.start': 'Kòmanse',
    'new.upload': 'Louvri yon pati ki sove', 'new.upload_hint': 'Kontinye yon pati ou te telechaje (.txt) sou aparèy sa a.',
    'new.where': 'Ki kote pati a ap jwe', 'where.device': 'Sou aparèy sa a (mache san entènèt)', 'where.server': 'Sou sèvè a',
    'offline.needed': 'Sa a bezwen koneksyon ak sèvè a.',
    'offline.note': 'Pa gen koneksyon ak sèvè a: pati kont òdinatè a ak pati de moun jwe sou aparèy sa a; pati sou entènèt ak louvri pati ki sove bezwen koneksyon.',
    'side.south': 'Sid', 'side.north': 'Nò',
    'variant.I': 'Hoyito I — kay nenpòt kote', 'variant.II': 'Hoyito II — chenn, jwe ankò',
    'variant.III': 'Hoyito III — dènye twou a, jwe ankò',
    'games.title': 'Pati yo', 'games.none': 'Poko gen pati.', 'games.open': 'Louvri',
    'games.game': 'Pati', 'games.mode': 'Kijan', 'games.rules': 'Règ', 'games.status': 'Kote l ye',
    'games.score': 'Pwen', 'games.updated': 'Dènye kou',
    'status.waiting': 'ap tann yon jwè', 'status.playing': 'ap jwe', 'status.over': 'fini',
    'game.you': 'Ou', 'game.engine': 'Òdinatè (nivo {level})', 'game.opponent': 'Lòt jwè a',
    'game.turn': 'Se tou {name}', 'game.your_turn': 'Se tou pa w', 'game.thinking': 'Òdinatè a ap reflechi…',
    'game.sowing': '{name} ap simen…', 'game.sowing.you': 'N ap simen kou pa w la…',
    'game.replay': 'Etap {seq} sou {total}',
    'game.captured': 'pran', 'game.reserve': 'rezèv', 'game.round': 'Wonn {round}',
    'game.watching': 'W ap gade pati sa a.',
    'game.invite': 'Voye lyen sa a bay lòt jwè a:', 'game.copy': 'Kopye', 'game.copied': 'Lyen an kopye',
    'game.waiting': 'N ap tann dezyèm jwè a antre…',
    'game.joined': 'Ou antre nan pati a, bò {side}.', 'game.join_failed': 'Ou pa t ka antre: {error}',
    'game.undo': 'Defèt', 'game.hint': 'Konsèy', 'game.download': 'Telechaje pati a',
    'game.skip': 'Sote animasyon an', 'game.speed': 'Vitès',
    'speed.slow': 'Dousman', 'speed.normal': 'Nòmal', 'speed.fast': 'Vit', 'speed.instant': 'Touswit',
    'game.direction': 'Sans', 'dir.L': '↺ Kont zegwi mont (L)', 'dir.R': '↻ Nan sans zegwi mont (R)',
    'game.moves': 'Kou yo', 'game.live': 'Kounye a', 'game.first': 'Kòmansman', 'game.prev': 'Tounen', 'game.next': 'Avanse',
    'game.viewing': 'W ap gade etap {seq} sou {total}', 'game.start_pos': 'Kòmansman',
    'game.illegal': 'Ou pa ka jwe twou sa a kounye a.', 'game.not_your_turn': 'Se pa tou pa w.',
    'game.pick_second': 'Kòmansman: kounye a chwazi dezyèm twou a (Esc pou anile).',
    'game.hint_is': 'Konsèy: jwe twou {move}.',
    'game.passes': '{name} pa gen kou pou l jwe, li pase.', 'game.passes.you': 'Ou pa gen kou pou w jwe, ou pase.',
    'game.extra': '{name} pran e l ap jwe ankò.', 'game.extra.you': 'Ou pran e w ap jwe ankò.',
    'game.over': 'Pati a fini', 'game.wins': '{name} genyen', 'game.wins.you': 'Ou genyen', 'game.draw': 'Egalite',
    'game.score': 'Pwen', 'game.reason': 'Poukisa',
    'reason.last_four': 'dènye kat grenn yo te bay', 'reason.exhausted': 'pa gen grenn ankò',
    'reason.repetition': 'menm pozisyon an tounen twa fwa', 'reason.no_moves': 'pèsonn pa t ka jwe',
    'game.next_round': 'Kòmanse pwochen wonn nan', 'game.round_over': 'Wonn {round} fini',
    'game.match_over': 'Match la fini apre wonn {rounds}: {name} genyen',
    'game.match_over.you': 'Match la fini apre wonn {rounds}: ou genyen',
    'game.match_draw': 'Match la fini apre wonn {rounds}: egalite',
    'game.resign': 'Abandone', 'game.resign_confirm': 'Abandone? Pati a (oswa tout match la) fini kounye a epi lòt jwè a genyen.',
    'game.resigned': '{name} abandone', 'game.resigned.you': 'Ou abandone',
    'game.rounds': 'Wonn yo', 'game.lap': 'Tou {lap}', 'game.long_sowing': 'Yon simen ki long: {laps} tou.',
    'game.reconnecting': 'N ap rekonekte…', 'game.keys': 'Touch: 1–9 (0 = 10) jwe yon twou · ←/→ chwazi · Enter jwe · L/R sans · U defèt · H konsèy · Esc sote',
    'game.not_found': 'Pati sa a pa egziste.',
    'notfound.title': 'Paj la pa egziste', 'notfound.text': 'Pa gen okenn paj nan {path}.',
    'notfound.link': 'Kòmanse yon nouvo pati',
    'rules.title': 'Règ yo', 'error': 'Erè: {error}',
    'lang.switch': 'Lang', 'nav.label': 'Prensipal',
    'dir.ccw': 'kont zegwi mont', 'dir.cw': 'nan sans zegwi mont',
    'board.label': 'Tab Kay la', 'board.hole': '{side}, twou {num}, grenn: {count}',
    'board.closed': '{side}, twou {num}, fèmen', 'board.last_from': 'dènye kou a soti la',
    'board.last_capture': 'dènye kou a pran isit la',
    'moves.captured': 'pran {n}', 'moves.again': 'jwe ankò', 'moves.dir': 'simen {dir}',
    'say.move': '{name} jwe {move}.', 'say.move.you': 'Ou jwe {move}.', 'say.captured': 'Li pran {n}.',
    'title.your_move': '● Se tou pa w', 'games.match': 'match',
  },
};

/** The catalogues by language code (en, es, ht), each with every key. */
export const CATALOGUES = STRINGS;

/** The language codes, and each language's name in itself (for the selector). */
export const LANGUAGES = { en: 'English', es: 'Español', ht: 'Kreyòl' };

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
