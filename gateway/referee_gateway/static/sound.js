// A short chime when it becomes this seat's turn — only if the person turned sounds on
// (off by default: a table is a shared room).
const KEY = "referee:sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

export function chime() {
  if (!soundOn()) return;
  try {
    context = context || new AudioContext();
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.4);
    tone.connect(gain).connect(context.destination);
    tone.start();
    tone.stop(context.currentTime + 0.4);
  } catch (error) {
    // no audio here: the banner and the live region still say it
  }
}
