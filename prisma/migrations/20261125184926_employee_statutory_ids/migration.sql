-- Indian statutory ids of an employee, printed on the payslip: PAN (income tax), UAN (EPFO) and
-- the ESIC insurance (IP) number. Optional; the API validates their shape.
ALTER TABLE "employees" ADD COLUMN     "esi_number" TEXT,
ADD COLUMN     "pan_number" TEXT,
ADD COLUMN     "uan" TEXT;
