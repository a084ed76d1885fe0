-- Leave types: applicable_genders and applicable_employment_types become closed sets (the API's
-- Gender and EmploymentType enums). Stored values were matched case-insensitively, so they are
-- stored lower-case; a value outside the sets never matched anyone and is dropped. A type whose
-- restriction matched nobody would apply to everyone once emptied, so it is deactivated instead
-- (HR sees it inactive and can set the restriction again).
WITH cleaned AS (
  SELECT id,
         ARRAY(SELECT DISTINCT lower(btrim(g)) AS v FROM unnest(applicable_genders) g
                WHERE lower(btrim(g)) IN ('male', 'female', 'other') ORDER BY v) AS genders,
         ARRAY(SELECT DISTINCT lower(btrim(x)) AS v FROM unnest(applicable_employment_types) x
                WHERE lower(btrim(x)) IN ('full_time', 'part_time', 'contract', 'fixed_term', 'intern') ORDER BY v) AS types,
         cardinality(applicable_genders) > 0 AS had_genders,
         cardinality(applicable_employment_types) > 0 AS had_types
    FROM leave_types
)
UPDATE leave_types t
   SET applicable_genders = c.genders,
       applicable_employment_types = c.types,
       active = t.active AND NOT ((c.had_genders AND cardinality(c.genders) = 0) OR (c.had_types AND cardinality(c.types) = 0))
  FROM cleaned c
 WHERE c.id = t.id
   AND (t.applicable_genders IS DISTINCT FROM c.genders OR t.applicable_employment_types IS DISTINCT FROM c.types);
