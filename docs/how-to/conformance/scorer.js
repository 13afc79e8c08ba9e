// A tiny Yahtzee scorer (Hasbro's Classic rules, forced Joker) that speaks the
// `yahtzee-rules check` protocol: one JSON question a line in, one answer a line out.
// `node scorer.js MISTAKE` plants one classic mistake, to see the checker catch it.
const readline = require("readline");
const MISTAKE = process.argv[2] || "";
const UPPER = ["aces", "twos", "threes", "fours", "fives", "sixes"];
const LOWER = ["three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
  "large_straight", "yahtzee", "chance"];
const JOKER = { full_house: 25, small_straight: 30, large_straight: 40 };
const sum = (values) => values.reduce((a, b) => a + b, 0);

function score(dice, box) {
  const counts = [1, 2, 3, 4, 5, 6].map((face) => dice.filter((d) => d === face).length);
  const most = Math.max(...counts), face = counts.indexOf(most) + 1;
  const has = (run) => run.every((f) => dice.includes(f));
  if (UPPER.includes(box)) return (UPPER.indexOf(box) + 1) * counts[UPPER.indexOf(box)];
  switch (box) {
    case "three_of_a_kind":
      return most < 3 ? 0 : MISTAKE === "kind-sum" ? 3 * face : sum(dice);
    case "four_of_a_kind": return most >= 4 ? sum(dice) : 0;
    case "full_house":
      return (counts.includes(3) && counts.includes(2)) ||
        (MISTAKE === "five-full-house" && most === 5) ? 25 : 0;
    case "small_straight": return [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]].some(has) ? 30 : 0;
    case "large_straight": return [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]].some(has) ? 40 : 0;
    case "yahtzee": return most === 5 ? 50 : 0;
    default: return sum(dice); // chance
  }
}

function options(card, dice) {
  const open = [...UPPER, ...LOWER].filter((box) => !(box in card.boxes));
  const plain = Object.fromEntries(open.map((box) => [box, score(dice, box)]));
  const joker = dice.every((d) => d === dice[0]) && "yahtzee" in card.boxes;
  if (!joker || MISTAKE === "joker-order") return plain;
  const upper = UPPER[dice[0] - 1], lower = open.filter((box) => LOWER.includes(box));
  if (open.includes(upper)) return { [upper]: plain[upper] };
  if (lower.length) return Object.fromEntries(lower.map((b) => [b, JOKER[b] ?? plain[b]]));
  return Object.fromEntries(open.map((box) => [box, 0]));
}

function bonus(card, dice) {
  const held = MISTAKE === "bonus-without-50" ? "yahtzee" in card.boxes : card.boxes.yahtzee === 50;
  return dice.every((d) => d === dice[0]) && held ? 100 : 0;
}

function fill(card, dice, box) {
  const allowed = options(card, dice);
  if (!(box in allowed)) return { legal: false };
  const boxes = { ...card.boxes, [box]: allowed[box] };
  const marks = card.bonus_marks + (bonus(card, dice) ? 1 : 0);
  const upper = sum(UPPER.map((b) => boxes[b] || 0)), lower = sum(LOWER.map((b) => boxes[b] || 0));
  const counted = MISTAKE === "bonus-on-grand-total" ? upper + lower : upper;
  const totals = { upper_subtotal: upper, upper_bonus: counted >= 63 ? 35 : 0,
    lower_subtotal: lower, yahtzee_bonus: 100 * marks };
  totals.grand_total = upper + totals.upper_bonus + lower + totals.yahtzee_bonus;
  return { legal: true, card: { boxes, bonus_marks: marks }, totals };
}

function canRoll(q) {
  const shown = [...(q.dice || "")], held = [...q.keep];
  const showing = held.every((f) => held.filter((g) => g === f).length <= shown.filter((g) => g === f).length);
  return (q.rolls_used < 3 || MISTAKE === "fourth-roll") && showing;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const q = JSON.parse(line), dice = [...(q.dice || "")].map(Number);
  const answer = q.ask === "score" ? { points: score(dice, q.box) }
    : q.ask === "roll" ? { legal: canRoll(q) }
    : q.ask === "options" ? { options: options(q.card, dice), bonus: bonus(q.card, dice) }
    : fill(q.card, dice, q.box);
  console.log(JSON.stringify(answer));
});
