-- EPS eligibility is derived (DOMAIN §3.1): a member who joined from 1 Sep 2014 with PF wages above
-- the ceiling at joining is not in EPS, unless already an EPS member from earlier employment (an
-- existing UAN with EPS membership), which hr states on the salary setup with this flag.
ALTER TABLE "employee_salary_setups" ADD COLUMN     "existing_eps_member" BOOLEAN NOT NULL DEFAULT false;
