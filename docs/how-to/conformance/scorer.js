// A tiny Yahtzee scorer (Hasbro's Classic rules, forced Joker, and Triple Yahtzee's three
// columns) that speaks the `yahtzee-rules check` protocol: one JSON question a line in,
// one answer a line out. `node scorer.js MISTAKE` plants one classic mistake, to see the
// checker catch it.
const readline = require("readline");
const MISTAKE = process.argv[2] || "";
const UPPER = ["aces", "twos", "threes", "fours", "fives", "sixes"];
const LOWER = ["three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
  "large_straight", "yahtzee", "chance"];
const JOKER = { full_house: 25, small_straight: 30, large_straight: 40 };
const sum = (values) => values.reduce((a, b) => a + b, 0);
// the boxes of each column: one column, or Triple's three; and the Classic box of a box
const columnsOf = (rules) => rules.startsWith("triple")
  ? [1, 2, 3].map((m) => [...UPPER, ...LOWER].map((box) => `${box}_x${m}`)) : [[...UPPER, ...LOWER]];
const row = (box) => box.replace(/_x\d$/, "");

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

function options(card, dice, columns) {
  const open = columns.flat().filter((box) => !(box in card.boxes));
  const plain = Object.fromEntries(open.map((box) => [box, score(dice, row(box))]));
  const joker = dice.every((d) => d === dice[0]) && columns.every((c) => c[11] in card.boxes);
  if (!joker || MISTAKE === "joker-order") return plain;
  const upper = columns.map((c) => c[dice[0] - 1]).filter((box) => open.includes(box));
  const lower = open.filter((box) => LOWER.includes(row(box)));
  if (upper.length) return Object.fromEntries(upper.map((box) => [box, plain[box]]));
  if (lower.length) return Object.fromEntries(lower.map((b) => [b, JOKER[row(b)] ?? plain[b]]));
  return Object.fromEntries(open.map((box) => [box, 0]));
}

function bonus(card, dice, columns) {
  const held = columns.map((c) => card.boxes[c[11]]);
  const earns = MISTAKE === "bonus-without-50" ? held.every((h) => h !== undefined)
    : held.every((h) => h === 50);
  return dice.every((d) => d === dice[0]) && earns ? 100 : 0;
}

function fill(card, dice, box, columns) {
  const allowed = options(card, dice, columns);
  if (!(box in allowed)) return { legal: false };
  const boxes = { ...card.boxes, [box]: allowed[box] }, earned = bonus(card, dice, columns);
  const marks = card.bonus_marks + (earned ? 1 : 0);
  const each = columns.map((column) => {
    const upper = sum(column.slice(0, 6).map((b) => boxes[b] || 0));
    const lower = sum(column.slice(6).map((b) => boxes[b] || 0));
    const counted = MISTAKE === "bonus-on-grand-total" ? upper + lower : upper;
    const upperBonus = counted >= 63 ? 35 : 0;
    return { upper_subtotal: upper, upper_bonus: upperBonus, lower_subtotal: lower,
      grand_total: upper + upperBonus + lower };
  });
  const totals = Object.fromEntries(Object.keys(each[0]).map((name) =>
    [name, sum(each.map((c, i) => (i + 1) * c[name]))]));
  const times = MISTAKE === "bonus-times-column" ? Number(box.slice(-1)) : 1; // Triple: x1-x3
  totals.yahtzee_bonus = 100 * card.bonus_marks + earned * times;
  totals.grand_total += totals.yahtzee_bonus;
  const reply = { legal: true, card: { boxes, bonus_marks: marks }, totals };
  return columns.length > 1 ? { ...reply, columns: each } : reply;
}

function canRoll(q) {
  const shown = [...(q.dice || "")], held = [...q.keep];
  const showing = held.every((f) => held.filter((g) => g === f).length <= shown.filter((g) => g === f).length);
  return (q.rolls_used < 3 || MISTAKE === "fourth-roll") && showing;
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const q = JSON.parse(line), dice = [...(q.dice || "")].map(Number), columns = columnsOf(q.rules);
  const answer = q.ask === "score" ? { points: score(dice, row(q.box)) }
    : q.ask === "roll" ? { legal: canRoll(q) }
    : q.ask === "options"
      ? { options: options(q.card, dice, columns), bonus: bonus(q.card, dice, columns) }
    : fill(q.card, dice, q.box, columns);
  console.log(JSON.stringify(answer));
});
