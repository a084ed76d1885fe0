// Indian states and union territories by ISO 3166-2:IN code: what professional tax is keyed by.
// The document's IndianState enum takes a name or a code; the server stores the name.
export const INDIAN_STATES: Readonly<Record<string, string>> = {
  AN: "Andaman and Nicobar Islands",
  AP: "Andhra Pradesh",
  AR: "Arunachal Pradesh",
  AS: "Assam",
  BR: "Bihar",
  CH: "Chandigarh",
  CG: "Chhattisgarh",
  DH: "Dadra and Nagar Haveli and Daman and Diu",
  DL: "Delhi",
  GA: "Goa",
  GJ: "Gujarat",
  HR: "Haryana",
  HP: "Himachal Pradesh",
  JK: "Jammu and Kashmir",
  JH: "Jharkhand",
  KA: "Karnataka",
  KL: "Kerala",
  LA: "Ladakh",
  LD: "Lakshadweep",
  MP: "Madhya Pradesh",
  MH: "Maharashtra",
  MN: "Manipur",
  ML: "Meghalaya",
  MZ: "Mizoram",
  NL: "Nagaland",
  OD: "Odisha",
  PY: "Puducherry",
  PB: "Punjab",
  RJ: "Rajasthan",
  SK: "Sikkim",
  TN: "Tamil Nadu",
  TS: "Telangana",
  TR: "Tripura",
  UP: "Uttar Pradesh",
  UK: "Uttarakhand",
  WB: "West Bengal",
};

const BY_KEY = new Map<string, string>([
  ...Object.entries(INDIAN_STATES).map(([code, name]) => [code.toLowerCase(), name] as const),
  ...Object.values(INDIAN_STATES).map((name) => [name.toLowerCase(), name] as const),
]);

/** The state's name for a name or code (any case), or undefined when it is not one. */
export function indianStateName(value: string): string | undefined {
  return BY_KEY.get(value.trim().toLowerCase());
}

/** `value` as the stored name (null stays null); the document's enum has refused anything else. */
export function storedState<T extends string | null | undefined>(value: T): T {
  return (typeof value === "string" ? (indianStateName(value) ?? value) : value) as T;
}
