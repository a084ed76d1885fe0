-- Professional-tax states are validated from now on (IndianState: a name or an ISO 3166-2:IN
-- code, stored as the name). Stored values that name a state in another way - a code (`MH`),
-- another case, spaces around - become the name, so the slabs and the employees' states keep
-- matching. A value that is no state's name or code is left as it was (it is shown as stored;
-- the next change of the record must give a valid state).
CREATE TEMP TABLE indian_state_keys (key text PRIMARY KEY, name text NOT NULL) ON COMMIT DROP;
INSERT INTO indian_state_keys (key, name) VALUES
    ('an', 'Andaman and Nicobar Islands'),
    ('andaman and nicobar islands', 'Andaman and Nicobar Islands'),
    ('ap', 'Andhra Pradesh'),
    ('andhra pradesh', 'Andhra Pradesh'),
    ('ar', 'Arunachal Pradesh'),
    ('arunachal pradesh', 'Arunachal Pradesh'),
    ('as', 'Assam'),
    ('assam', 'Assam'),
    ('br', 'Bihar'),
    ('bihar', 'Bihar'),
    ('ch', 'Chandigarh'),
    ('chandigarh', 'Chandigarh'),
    ('cg', 'Chhattisgarh'),
    ('chhattisgarh', 'Chhattisgarh'),
    ('dh', 'Dadra and Nagar Haveli and Daman and Diu'),
    ('dadra and nagar haveli and daman and diu', 'Dadra and Nagar Haveli and Daman and Diu'),
    ('dl', 'Delhi'),
    ('delhi', 'Delhi'),
    ('ga', 'Goa'),
    ('goa', 'Goa'),
    ('gj', 'Gujarat'),
    ('gujarat', 'Gujarat'),
    ('hr', 'Haryana'),
    ('haryana', 'Haryana'),
    ('hp', 'Himachal Pradesh'),
    ('himachal pradesh', 'Himachal Pradesh'),
    ('jk', 'Jammu and Kashmir'),
    ('jammu and kashmir', 'Jammu and Kashmir'),
    ('jh', 'Jharkhand'),
    ('jharkhand', 'Jharkhand'),
    ('ka', 'Karnataka'),
    ('karnataka', 'Karnataka'),
    ('kl', 'Kerala'),
    ('kerala', 'Kerala'),
    ('la', 'Ladakh'),
    ('ladakh', 'Ladakh'),
    ('ld', 'Lakshadweep'),
    ('lakshadweep', 'Lakshadweep'),
    ('mp', 'Madhya Pradesh'),
    ('madhya pradesh', 'Madhya Pradesh'),
    ('mh', 'Maharashtra'),
    ('maharashtra', 'Maharashtra'),
    ('mn', 'Manipur'),
    ('manipur', 'Manipur'),
    ('ml', 'Meghalaya'),
    ('meghalaya', 'Meghalaya'),
    ('mz', 'Mizoram'),
    ('mizoram', 'Mizoram'),
    ('nl', 'Nagaland'),
    ('nagaland', 'Nagaland'),
    ('od', 'Odisha'),
    ('odisha', 'Odisha'),
    ('py', 'Puducherry'),
    ('puducherry', 'Puducherry'),
    ('pb', 'Punjab'),
    ('punjab', 'Punjab'),
    ('rj', 'Rajasthan'),
    ('rajasthan', 'Rajasthan'),
    ('sk', 'Sikkim'),
    ('sikkim', 'Sikkim'),
    ('tn', 'Tamil Nadu'),
    ('tamil nadu', 'Tamil Nadu'),
    ('ts', 'Telangana'),
    ('telangana', 'Telangana'),
    ('tr', 'Tripura'),
    ('tripura', 'Tripura'),
    ('up', 'Uttar Pradesh'),
    ('uttar pradesh', 'Uttar Pradesh'),
    ('uk', 'Uttarakhand'),
    ('uttarakhand', 'Uttarakhand'),
    ('wb', 'West Bengal'),
    ('west bengal', 'West Bengal');

UPDATE employees e SET state = k.name
  FROM indian_state_keys k
 WHERE lower(btrim(e.state)) = k.key AND e.state IS DISTINCT FROM k.name;

UPDATE employee_salary_setups s SET pt_state = k.name
  FROM indian_state_keys k
 WHERE lower(btrim(s.pt_state)) = k.key AND s.pt_state IS DISTINCT FROM k.name;

UPDATE tenant_settings t
   SET settings = jsonb_set(t.settings::jsonb, '{states}', (
         SELECT jsonb_agg(
                  CASE WHEN k.name IS NULL THEN st ELSE jsonb_set(st, '{state}', to_jsonb(k.name)) END
                  ORDER BY ord)
           FROM jsonb_array_elements(t.settings::jsonb -> 'states') WITH ORDINALITY AS x(st, ord)
           LEFT JOIN indian_state_keys k ON k.key = lower(btrim(st ->> 'state'))))
 WHERE t.kind = 'pt' AND jsonb_typeof(t.settings::jsonb -> 'states') = 'array'
   AND jsonb_array_length(t.settings::jsonb -> 'states') > 0;
