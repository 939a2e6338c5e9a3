/**
 * Professional grading of a physical card (issue 19): the company that slabbed it, the grade it
 * gave and the certificate number on the slab's label. Zod-free, so the list pages can draw a
 * slab badge without loading zod; the schemas live in catalog.ts.
 */

export const GRADING_COMPANIES = ['PSA', 'BGS', 'CGC', 'SGC'] as const;
export type GradingCompany = (typeof GRADING_COMPANIES)[number];

export const GRADING_COMPANY_NAME: Record<GradingCompany, string> = {
  PSA: 'PSA (Professional Sports Authenticator)',
  BGS: 'BGS (Beckett Grading Services)',
  CGC: 'CGC Cards',
  SGC: 'SGC (Sportscard Guaranty)',
};

/**
 * The grades each company issues. PSA gives whole grades 1–10 and half grades only from 1.5 to
 * 8.5 (there is no PSA 9.5); Beckett, CGC and SGC grade 1–10 in half steps.
 */
export function gradesOf(company: GradingCompany): number[] {
  const halves = Array.from({ length: 19 }, (_, i) => 1 + i / 2);
  return company === 'PSA' ? halves.filter((g) => Number.isInteger(g) || g < 9) : halves;
}

export function isValidGrade(company: GradingCompany, grade: number): boolean {
  return gradesOf(company).includes(grade);
}

export function gradeRule(company: GradingCompany): string {
  return company === 'PSA' ? 'PSA grades are 1–10 in whole steps, with halves from 1.5 to 8.5.' : `${company} grades are 1–10 in steps of 0.5.`;
}

/** Certificate numbers as printed on the labels: digits only, of the length each company uses. */
export const CERT_PATTERNS: Record<GradingCompany, { re: RegExp; rule: string }> = {
  PSA: { re: /^\d{8,10}$/, rule: 'A PSA certificate number is 8 to 10 digits.' },
  BGS: { re: /^\d{7,10}$/, rule: 'A Beckett certificate number is 7 to 10 digits.' },
  CGC: { re: /^\d{10}$/, rule: 'A CGC certificate number is 10 digits.' },
  SGC: { re: /^\d{7,10}$/, rule: 'An SGC certificate number is 7 to 10 digits.' },
};

/**
 * Where a physical slab is (issue 38, ADR 0023): in the shop's stock; held out of stock until an
 * admin fills in its missing certificate; set aside for a daily drop; in a collector's vault; in a
 * shipment being prepared; sent (shipped or delivered); lost in the post.
 */
export const SLAB_STATES = ['in_stock', 'held', 'reserved', 'owned', 'shipping', 'shipped', 'lost'] as const;
export type SlabState = (typeof SLAB_STATES)[number];

export const SLAB_STATE_LABEL: Record<SlabState, string> = {
  in_stock: 'In stock',
  held: 'Held: certificate missing',
  reserved: 'Reserved for a daily drop',
  owned: 'In a vault',
  shipping: 'In a shipment',
  shipped: 'Shipped',
  lost: 'Lost in the post',
};

/**
 * The field errors of one slab: grader, grade and certificate. The certificate may be left out
 * only where `certOptional` (filling it in later); it is checked against the grader's format.
 * Shared by the API (400 field messages) and the admin form.
 */
export function slabFieldErrors(
  input: { grader: GradingCompany | null; grade: number | null; certNumber: string | null },
  opts: { certOptional?: boolean } = {},
): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  const { grader, grade, certNumber } = input;
  if (!grader) {
    fields.grader = ['Pick the grading company: PSA, BGS, CGC or SGC.'];
    return fields;
  }
  if (grade === null) fields.grade = [`Enter the ${grader} grade.`];
  else if (!isValidGrade(grader, grade)) fields.grade = [`${formatGrade(grade)} is not a ${grader} grade. ${gradeRule(grader)}`];
  if (!certNumber) {
    if (!opts.certOptional) fields.certNumber = [`Enter the ${grader} certificate number.`];
  } else if (!CERT_PATTERNS[grader].re.test(certNumber)) fields.certNumber = [CERT_PATTERNS[grader].rule];
  return fields;
}

export interface Grading {
  company: GradingCompany;
  grade: number;
  /** The slab's certificate; null on a catalog listing (each slab has its own) or a slab whose certificate is still missing. */
  certNumber: string | null;
}

/** "9.5", "10", "8". */
export const formatGrade = (grade: number) => (Number.isInteger(grade) ? String(grade) : grade.toFixed(1));

/** What the slab badge shows: "PSA 10". */
export const gradeLabel = (g: Pick<Grading, 'company' | 'grade'>) => `${g.company} ${formatGrade(g.grade)}`;

/** What a screen reader hears: "Graded PSA 10, certificate 12345678". */
export const gradeSpoken = (g: Grading) => `Graded ${gradeLabel(g)}${g.certNumber ? `, certificate ${g.certNumber}` : ''}`;

/**
 * The field errors of a catalog card's listing grade (issue 38): company and grade together, or
 * neither. Certificates belong to its slabs (slabFieldErrors).
 */
export function listingFieldErrors(input: { gradingCompany: GradingCompany | null; grade: number | null }): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  const { gradingCompany: company, grade } = input;
  if (!company) {
    if (grade !== null) fields.grade = ['Pick the grading company first, or clear the grade.'];
    return fields;
  }
  if (grade === null) fields.grade = [`Enter the ${company} grade.`];
  else if (!isValidGrade(company, grade)) fields.grade = [`${formatGrade(grade)} is not a ${company} grade. ${gradeRule(company)}`];
  return fields;
}

/**
 * The field errors of a card's grading as a whole (company, grade, certificate go together).
 * Shared by the API (400 field messages) and the admin form.
 */
export function gradingFieldErrors(input: {
  gradingCompany: GradingCompany | null;
  grade: number | null;
  certNumber: string | null;
}): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  const { gradingCompany: company, grade, certNumber } = input;
  if (!company) {
    if (grade !== null) fields.grade = ['Pick the grading company first, or clear the grade.'];
    if (certNumber) fields.certNumber = ['Pick the grading company first, or clear the certificate number.'];
    return fields;
  }
  if (grade === null) fields.grade = [`Enter the ${company} grade.`];
  else if (!isValidGrade(company, grade)) fields.grade = [`${formatGrade(grade)} is not a ${company} grade. ${gradeRule(company)}`];
  if (!certNumber) fields.certNumber = [`Enter the ${company} certificate number.`];
  else if (!CERT_PATTERNS[company].re.test(certNumber)) fields.certNumber = [CERT_PATTERNS[company].rule];
  return fields;
}
