/**
 * Professional grading of a physical card (issue 19): the company that slabbed it, the grade it
 * gave and the certificate number on the slab's label. Zod-free, so the list pages can draw a
 * slab badge without loading zod; the schemas live in catalog.ts.
 */

export const GRADING_COMPANIES = ['PSA', 'BGS', 'CGC'] as const;
export type GradingCompany = (typeof GRADING_COMPANIES)[number];

export const GRADING_COMPANY_NAME: Record<GradingCompany, string> = {
  PSA: 'PSA (Professional Sports Authenticator)',
  BGS: 'BGS (Beckett Grading Services)',
  CGC: 'CGC Cards',
};

/**
 * The grades each company issues. PSA gives whole grades 1–10 and half grades only from 1.5 to
 * 8.5 (there is no PSA 9.5); Beckett and CGC grade 1–10 in half steps.
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
};

export interface Grading {
  company: GradingCompany;
  grade: number;
  certNumber: string;
}

/** "9.5", "10", "8". */
export const formatGrade = (grade: number) => (Number.isInteger(grade) ? String(grade) : grade.toFixed(1));

/** What the slab badge shows: "PSA 10". */
export const gradeLabel = (g: Pick<Grading, 'company' | 'grade'>) => `${g.company} ${formatGrade(g.grade)}`;

/** What a screen reader hears: "Graded PSA 10, certificate 12345678". */
export const gradeSpoken = (g: Grading) => `Graded ${gradeLabel(g)}, certificate ${g.certNumber}`;

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
