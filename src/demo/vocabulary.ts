/** Words the demo generator draws from: plausible, Canadian, bilingual where it matters. */

export const SURNAMES_EN = [
  "Anderson", "Baker", "Campbell", "Chen", "Clarke", "Davidson", "Dhillon", "Fraser", "Gill", "Graham",
  "Grant", "Hamilton", "Harris", "Henderson", "Johnston", "Kaur", "Kennedy", "Lam", "Lee", "MacDonald",
  "MacKenzie", "Martin", "McLean", "Mitchell", "Morrison", "Murray", "Nguyen", "Patel", "Reid", "Robertson",
  "Ross", "Scott", "Sharma", "Singh", "Smith", "Stewart", "Sutherland", "Taylor", "Thompson", "Walker",
  "Wang", "Watson", "Wilson", "Wong", "Young", "Sandhu", "O'Brien", "Kowalski", "Rossi", "Ferreira",
];
export const SURNAMES_FR = [
  "Beauchamp", "Bélanger", "Bergeron", "Bouchard", "Boucher", "Caron", "Côté", "Cloutier", "Desjardins", "Dubé",
  "Fortin", "Gagnon", "Gauthier", "Girard", "Lachance", "Lapointe", "Lavoie", "Leblanc", "Lefebvre", "Lévesque",
  "Martel", "Morin", "Ouellet", "Paquette", "Pelletier", "Poirier", "Roy", "Simard", "Thibault", "Tremblay",
];
export const FIRST_NAMES_EN = [
  "Aiden", "Amelia", "Arjun", "Ava", "Benjamin", "Charlotte", "Daniel", "Emily", "Ethan", "Grace",
  "Hannah", "Harpreet", "Jack", "James", "Jasmine", "Liam", "Lucas", "Maya", "Mei", "Noah",
  "Olivia", "Priya", "Ryan", "Sarah", "Sophia", "Thomas", "Wei", "William", "Zoe", "Omar",
];
export const FIRST_NAMES_FR = [
  "Amélie", "Antoine", "Camille", "Chloé", "Émile", "Étienne", "Félix", "Gabriel", "Jacques", "Jean-Luc",
  "Julie", "Léa", "Louis", "Marie", "Mathieu", "Nathalie", "Olivier", "Philippe", "Sophie", "Zoé",
];

export const BRAND_WORDS = [
  "Maple Leaf", "Northern Shield", "True North", "Harbourview", "Prairie Sky", "Evergreen", "Summit",
  "Pinnacle", "Lakeshore", "Keystone", "Cornerstone", "Trillium", "Westcoast", "Atlantic", "Aurora",
  "Granite", "Riverbend", "Heritage", "Meridian", "Polaris", "Beacon", "Compass", "Cedar", "Frontier",
];
export const BRAND_WORDS_FR = [
  "Fleur de Lys", "Saint-Laurent", "Boréal", "Horizon", "Laurentides", "Rive-Sud", "Érable", "Cap Diamant",
];

export const NAME_SUFFIXES_EN = [
  "Insurance Brokers", "Insurance Group", "Insurance Services", "Insurance Agency", "Brokerage", "Insurance Inc.",
];
export const NAME_SUFFIXES_FR = ["Assurances", "Cabinet en assurance de dommages", "Groupe Conseil"];

/** How often a broker offers each of INSURANCE_LINES (src/domain/insuranceLines.ts), in its order: the first ones are common, the tail rarer. */
export const INSURANCE_LINE_WEIGHTS = [10, 9, 5, 5, 6, 4, 3, 1.2, 0.8, 1, 1, 0.8];

export const LINE_FR: Record<string, string> = {
  Auto: "automobile", Home: "habitation", Tenant: "locataire", Condo: "copropriété", Commercial: "entreprise",
  Life: "vie", Travel: "voyage", Farm: "agricole", Marine: "maritime", Pet: "animaux", Mortgage: "hypothécaire",
  "Real Estate": "immobilier",
};

export const SPECIALTIES = [
  "Young drivers", "High-risk auto", "Classic cars", "Small business", "Contractors", "Trucking", "Cottages",
  "Newcomers to Canada", "Seniors", "Students", "Condo owners", "Landlords", "Farm operations", "Boats and watercraft",
  "Professional liability", "Restaurants", "Snowbirds", "Group benefits",
];

export const EXTRA_LANGUAGES = [
  "Punjabi", "Mandarin", "Cantonese", "Spanish", "Italian", "Portuguese", "Tagalog", "Arabic", "Hindi", "Ukrainian",
];

export const STREETS = [
  "Main Street", "King Street", "Queen Street", "Yonge Street", "Portage Avenue", "Jasper Avenue", "Robson Street",
  "Water Street", "Barrington Street", "Albert Street", "Victoria Avenue", "Elm Street", "Church Street", "1st Avenue",
];
export const STREETS_FR = [
  "rue Sainte-Catherine", "boulevard René-Lévesque", "rue Saint-Jean", "boulevard Laurier", "rue Principale",
  "chemin Sainte-Foy", "rue King Ouest", "boulevard des Forges",
];

export const REVIEW_TITLES: Record<number, string[]> = {
  5: ["Excellent service", "Saved us a lot", "Highly recommend", "Fast and friendly", "Above and beyond"],
  4: ["Very good experience", "Helpful broker", "Good rates", "Would use again"],
  3: ["Okay overall", "Average experience", "Decent but slow"],
  2: ["Disappointing", "Slow to respond", "Expected more"],
  1: ["Poor service", "Would not recommend", "Claim was a struggle"],
};
export const REVIEW_BODIES: Record<number, string[]> = {
  5: [
    "They shopped my {line} policy with several carriers and found a much better rate. Every question answered the same day.",
    "Switched our {line} coverage here after a renewal shock. Clear explanations and no pressure.",
    "Helped us through a claim after a winter storm. Calm, organised and on our side the whole way.",
  ],
  4: [
    "Good {line} quote and a friendly team. Paperwork took a few days longer than promised.",
    "Solid advice on {line} coverage; they pointed out gaps in my old policy.",
  ],
  3: [
    "The {line} price was fine but it took several calls to get documents sent.",
    "Nothing wrong, nothing special. Rates were in line with what I found online.",
  ],
  2: [
    "Waited over a week for a {line} quote. The rate was good once it arrived.",
    "Renewal went up without much explanation.",
  ],
  1: [
    "Hard to reach during my claim and nobody called back.",
    "Cancelled my {line} policy over a billing mix-up; had to start over elsewhere.",
  ],
};
export const REVIEW_BODIES_FR: Record<number, string[]> = {
  5: ["Service impeccable, ils ont trouvé une bien meilleure prime pour mon assurance {line}."],
  4: ["Bons conseils et une équipe sympathique, un peu lents pour les documents."],
  3: ["Correct, sans plus. Les prix sont dans la moyenne."],
  2: ["Difficile de les joindre pour mon renouvellement."],
  1: ["Très déçu du suivi de ma réclamation."],
};
