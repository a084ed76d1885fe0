// The dictionary of skills for the offline AI helpers - each with its kind, aliases and the way it is
// written in prose - and matching them in text as whole words. Pure: the same text, the same skills.
import { yielder } from "../../../lib/yielding.ts";

export type SkillKind =
  | "language"
  | "frontend"
  | "backend"
  | "database"
  | "cloud"
  | "devops"
  | "data"
  | "mobile"
  | "testing"
  | "design"
  | "business"
  | "soft";

/** Canonical skill → kind and aliases (lower-case; matched as whole words). */
const SKILLS: Record<string, { kind: SkillKind; aliases?: string[] }> = {
  javascript: { kind: "language", aliases: ["js", "es6", "ecmascript"] },
  typescript: { kind: "language", aliases: ["ts"] },
  python: { kind: "language" },
  java: { kind: "language" },
  kotlin: { kind: "language" },
  swift: { kind: "language" },
  "c++": { kind: "language", aliases: ["cpp"] },
  "c#": { kind: "language", aliases: ["csharp"] },
  golang: { kind: "language", aliases: ["go lang"] },
  rust: { kind: "language" },
  ruby: { kind: "language" },
  php: { kind: "language" },
  scala: { kind: "language" },
  bash: { kind: "language", aliases: ["shell scripting"] },
  html: { kind: "frontend", aliases: ["html5"] },
  css: { kind: "frontend", aliases: ["css3", "sass", "scss"] },
  react: { kind: "frontend", aliases: ["react.js", "reactjs"] },
  angular: { kind: "frontend", aliases: ["angularjs"] },
  vue: { kind: "frontend", aliases: ["vue.js", "vuejs"] },
  "next.js": { kind: "frontend", aliases: ["nextjs"] },
  "tailwind css": { kind: "frontend", aliases: ["tailwind"] },
  "node.js": { kind: "backend", aliases: ["node", "nodejs"] },
  express: { kind: "backend", aliases: ["express.js", "expressjs"] },
  nestjs: { kind: "backend", aliases: ["nest.js"] },
  django: { kind: "backend" },
  flask: { kind: "backend" },
  fastapi: { kind: "backend" },
  spring: { kind: "backend", aliases: ["spring boot", "springboot"] },
  ".net": { kind: "backend", aliases: ["dotnet", "asp.net"] },
  laravel: { kind: "backend" },
  rails: { kind: "backend", aliases: ["ruby on rails"] },
  "rest api": { kind: "backend", aliases: ["rest apis", "restful", "restful apis"] },
  graphql: { kind: "backend" },
  grpc: { kind: "backend" },
  microservices: { kind: "backend", aliases: ["microservice", "micro-services"] },
  kafka: { kind: "backend", aliases: ["apache kafka"] },
  rabbitmq: { kind: "backend" },
  postgresql: { kind: "database", aliases: ["postgres", "psql"] },
  mysql: { kind: "database" },
  "sql server": { kind: "database", aliases: ["mssql"] },
  oracle: { kind: "database" },
  mongodb: { kind: "database", aliases: ["mongo"] },
  redis: { kind: "database" },
  elasticsearch: { kind: "database", aliases: ["elastic search", "opensearch"] },
  sql: { kind: "database" },
  nosql: { kind: "database" },
  aws: { kind: "cloud", aliases: ["amazon web services"] },
  azure: { kind: "cloud", aliases: ["microsoft azure"] },
  gcp: { kind: "cloud", aliases: ["google cloud", "google cloud platform"] },
  docker: { kind: "devops", aliases: ["containers", "containerization"] },
  kubernetes: { kind: "devops", aliases: ["k8s"] },
  terraform: { kind: "devops" },
  ansible: { kind: "devops" },
  "ci/cd": { kind: "devops", aliases: ["cicd", "continuous integration", "continuous delivery", "continuous deployment"] },
  jenkins: { kind: "devops" },
  "github actions": { kind: "devops" },
  git: { kind: "devops", aliases: ["github", "gitlab"] },
  linux: { kind: "devops", aliases: ["unix"] },
  observability: { kind: "devops", aliases: ["monitoring", "prometheus", "grafana"] },
  security: { kind: "devops", aliases: ["cybersecurity", "application security", "owasp"] },
  "machine learning": { kind: "data", aliases: ["ml"] },
  "deep learning": { kind: "data" },
  nlp: { kind: "data", aliases: ["natural language processing"] },
  tensorflow: { kind: "data" },
  pytorch: { kind: "data" },
  "scikit-learn": { kind: "data", aliases: ["sklearn", "scikit learn"] },
  pandas: { kind: "data" },
  numpy: { kind: "data" },
  spark: { kind: "data", aliases: ["apache spark", "pyspark"] },
  hadoop: { kind: "data" },
  airflow: { kind: "data", aliases: ["apache airflow"] },
  dbt: { kind: "data" },
  snowflake: { kind: "data" },
  "data analysis": { kind: "data", aliases: ["data analytics", "analytics"] },
  statistics: { kind: "data", aliases: ["statistical analysis"] },
  "power bi": { kind: "data", aliases: ["powerbi"] },
  tableau: { kind: "data" },
  excel: { kind: "data", aliases: ["ms excel", "microsoft excel", "spreadsheets"] },
  android: { kind: "mobile" },
  ios: { kind: "mobile" },
  flutter: { kind: "mobile" },
  "react native": { kind: "mobile" },
  "automation testing": { kind: "testing", aliases: ["test automation", "automated testing"] },
  "manual testing": { kind: "testing" },
  selenium: { kind: "testing" },
  cypress: { kind: "testing" },
  jest: { kind: "testing" },
  "unit testing": { kind: "testing", aliases: ["unit tests", "tdd", "test-driven development"] },
  figma: { kind: "design" },
  "ui/ux design": { kind: "design", aliases: ["ux", "ui design", "ux design", "user experience", "ui/ux"] },
  photoshop: { kind: "design", aliases: ["adobe photoshop"] },
  autocad: { kind: "design" },
  agile: { kind: "business", aliases: ["scrum", "kanban"] },
  jira: { kind: "business" },
  "project management": { kind: "business", aliases: ["pmp", "program management"] },
  "product management": { kind: "business", aliases: ["product roadmap"] },
  recruitment: { kind: "business", aliases: ["recruiting", "talent acquisition", "sourcing"] },
  payroll: { kind: "business", aliases: ["payroll processing"] },
  "employee relations": { kind: "business" },
  "labour law": { kind: "business", aliases: ["labor law", "employment law", "statutory compliance"] },
  accounting: { kind: "business", aliases: ["bookkeeping", "accounts payable", "accounts receivable"] },
  taxation: { kind: "business", aliases: ["gst", "tds", "income tax"] },
  tally: { kind: "business", aliases: ["tally erp"] },
  sap: { kind: "business", aliases: ["sap erp", "sap hana"] },
  salesforce: { kind: "business" },
  crm: { kind: "business", aliases: ["hubspot", "zoho crm"] },
  sales: { kind: "business", aliases: ["b2b sales", "inside sales", "field sales"] },
  "business development": { kind: "business", aliases: ["lead generation"] },
  "digital marketing": { kind: "business", aliases: ["performance marketing", "google ads", "social media marketing"] },
  seo: { kind: "business", aliases: ["search engine optimization"] },
  "content writing": { kind: "business", aliases: ["copywriting", "technical writing"] },
  "customer service": { kind: "business", aliases: ["customer support", "customer success"] },
  "supply chain": { kind: "business", aliases: ["logistics", "procurement", "inventory management"] },
  "financial analysis": { kind: "business", aliases: ["financial modelling", "financial modeling", "fp&a"] },
  "six sigma": { kind: "business", aliases: ["lean six sigma"] },
  communication: { kind: "soft", aliases: ["communication skills", "communicator", "written and verbal"] },
  leadership: { kind: "soft", aliases: ["team lead", "led a team", "people management", "lead a team"] },
  mentoring: { kind: "soft", aliases: ["mentor", "mentored", "mentorship", "coaching"] },
  teamwork: { kind: "soft", aliases: ["team player", "collaboration", "collaborative"] },
  "problem solving": { kind: "soft", aliases: ["problem-solving", "analytical thinking"] },
  "stakeholder management": { kind: "soft", aliases: ["stakeholders"] },
  negotiation: { kind: "soft", aliases: ["negotiating"] },
  "time management": { kind: "soft", aliases: ["prioritization", "prioritisation"] },
  "system design": { kind: "backend", aliases: ["systems design", "distributed systems", "architecture", "scalability"] },
};

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const MATCHERS: { skill: string; kind: SkillKind; re: RegExp }[] = Object.entries(SKILLS).flatMap(([skill, def]) =>
  [skill, ...(def.aliases ?? [])].map((alias) => ({
    skill,
    kind: def.kind,
    re: new RegExp(`(?<![a-z0-9+#.])${escapeRegExp(alias)}(?![a-z0-9+#]|\\.[a-z0-9])`, "i"),
  })),
);

/** How a skill is written in prose ("TypeScript", "REST APIs"); lower-case names stay as they are. */
const LABELS: Record<string, string> = {
  javascript: "JavaScript",
  typescript: "TypeScript",
  python: "Python",
  java: "Java",
  kotlin: "Kotlin",
  swift: "Swift",
  "c++": "C++",
  "c#": "C#",
  golang: "Go",
  rust: "Rust",
  ruby: "Ruby",
  php: "PHP",
  scala: "Scala",
  bash: "Bash",
  html: "HTML",
  css: "CSS",
  react: "React",
  angular: "Angular",
  vue: "Vue",
  "next.js": "Next.js",
  "tailwind css": "Tailwind CSS",
  "node.js": "Node.js",
  express: "Express",
  nestjs: "NestJS",
  django: "Django",
  flask: "Flask",
  fastapi: "FastAPI",
  spring: "Spring",
  ".net": ".NET",
  laravel: "Laravel",
  rails: "Rails",
  "rest api": "REST API",
  graphql: "GraphQL",
  grpc: "gRPC",
  kafka: "Kafka",
  rabbitmq: "RabbitMQ",
  postgresql: "PostgreSQL",
  mysql: "MySQL",
  "sql server": "SQL Server",
  oracle: "Oracle",
  mongodb: "MongoDB",
  redis: "Redis",
  elasticsearch: "Elasticsearch",
  sql: "SQL",
  nosql: "NoSQL",
  aws: "AWS",
  azure: "Azure",
  gcp: "Google Cloud",
  docker: "Docker",
  kubernetes: "Kubernetes",
  terraform: "Terraform",
  ansible: "Ansible",
  "ci/cd": "CI/CD",
  jenkins: "Jenkins",
  "github actions": "GitHub Actions",
  git: "Git",
  linux: "Linux",
  nlp: "NLP",
  tensorflow: "TensorFlow",
  pytorch: "PyTorch",
  pandas: "pandas",
  numpy: "NumPy",
  spark: "Spark",
  hadoop: "Hadoop",
  airflow: "Airflow",
  dbt: "dbt",
  snowflake: "Snowflake",
  "power bi": "Power BI",
  tableau: "Tableau",
  excel: "Excel",
  android: "Android",
  ios: "iOS",
  flutter: "Flutter",
  "react native": "React Native",
  selenium: "Selenium",
  cypress: "Cypress",
  jest: "Jest",
  figma: "Figma",
  "ui/ux design": "UI/UX design",
  photoshop: "Photoshop",
  autocad: "AutoCAD",
  agile: "Agile",
  jira: "Jira",
  tally: "Tally",
  sap: "SAP",
  salesforce: "Salesforce",
  crm: "CRM",
  seo: "SEO",
};
export const skillLabel = (skill: string) => LABELS[skill] ?? skill;

export function skillKind(skill: string): SkillKind | null {
  return SKILLS[skill]?.kind ?? null;
}

/** The aliases of a skill of the dictionary (none for another). */
export const skillAliases = (skill: string): string[] => SKILLS[skill]?.aliases ?? [];

const ALIASES = new Map<string, string>(
  Object.entries(SKILLS).flatMap(([skill, def]) => [skill, ...(def.aliases ?? [])].map((a) => [a, skill] as [string, string])),
);

/** Canonical name of a skill given by a person ("Postgres" → "postgresql"); unknown skills stay as given, lower-case. */
export function canonicalSkill(s: string): string {
  const v = s.trim().toLowerCase().replace(/\s+/g, " ");
  return ALIASES.get(v) ?? v;
}

/** Skills found in a text, canonical names, in dictionary order (deterministic). */
export function extractSkills(text: string): string[] {
  const t = text.toLowerCase();
  const found: string[] = [];
  for (const m of MATCHERS) if (!found.includes(m.skill) && m.re.test(t)) found.push(m.skill);
  return found;
}

/** extractSkills() with a turn of the event loop every few ms of matching (for texts of 100 000 characters). */
export async function extractSkillsYielding(text: string): Promise<string[]> {
  const t = text.toLowerCase();
  const found: string[] = [];
  const tick = yielder();
  for (const m of MATCHERS) {
    if (!found.includes(m.skill) && m.re.test(t)) found.push(m.skill);
    await tick();
  }
  return found;
}

/** Does the text mention the skill (by its canonical name or an alias, or literally for unknown skills)? */
export function mentions(text: string, skill: string): boolean {
  const matchers = MATCHERS.filter((m) => m.skill === skill);
  if (matchers.length) return matchers.some((m) => m.re.test(text));
  return new RegExp(`(?<![a-z0-9])${escapeRegExp(skill)}(?![a-z0-9])`, "i").test(text);
}
