-- Data only: the global grading presets shipped with the service. Every caller may use them;
-- nobody may modify or remove them. A null language means any language.
INSERT INTO "GradingPreset" ("id", "title", "type", "language", "ownerId", "organizationId", "global", "grades", "successfulAll", "updatedAt") VALUES
('gp_passfail', 'Pass/fail (50%)', 'go-nogo-custom', NULL, NULL, NULL, true,
 '[{"threshold":0,"grade":"fail","text":"*Failed*"},{"threshold":50,"grade":"pass","text":"*Passed*"}]', false, CURRENT_TIMESTAMP),
('gp_passfail_en', 'Passed/failed (60%)', 'go-nogo-custom', 'en', NULL, NULL, true,
 '[{"threshold":0,"grade":"fail","text":"*Failed*   You did not reach the pass mark."},{"threshold":60,"grade":"pass","text":"*Passed*   Congratulations!"}]', false, CURRENT_TIMESTAMP),
('gp_passfail_de', 'Bestanden/nicht bestanden (50%)', 'go-nogo-custom', 'de', NULL, NULL, true,
 '[{"threshold":0,"grade":"fail","text":"*Nicht bestanden*"},{"threshold":50,"grade":"pass","text":"*Bestanden*"}]', false, CURRENT_TIMESTAMP),
('gp_passfail_hu', 'Megfelelt/nem felelt meg (50%)', 'go-nogo-custom', 'hu', NULL, NULL, true,
 '[{"threshold":0,"grade":"fail","text":"*Nem felelt meg*"},{"threshold":50,"grade":"pass","text":"*Megfelelt*"}]', false, CURRENT_TIMESTAMP),
('gp_hu_school', 'Ötfokú iskolai osztályzat', 'hungarian-school', 'hu', NULL, NULL, true,
 '[{"threshold":0,"grade":"1","text":"*Elégtelen (1)*"},{"threshold":40,"grade":"2","text":"*Elégséges (2)*"},{"threshold":55,"grade":"3","text":"*Közepes (3)*"},{"threshold":70,"grade":"4","text":"*Jó (4)*"},{"threshold":85,"grade":"5","text":"*Jeles (5)*"}]', false, CURRENT_TIMESTAMP),
('gp_hu_university', 'Ötfokú egyetemi érdemjegy', 'hungarian-university', 'hu', NULL, NULL, true,
 '[{"threshold":0,"grade":"1","text":"*Elégtelen (1)*"},{"threshold":50,"grade":"2","text":"*Elégséges (2)*"},{"threshold":63,"grade":"3","text":"*Közepes (3)*"},{"threshold":75,"grade":"4","text":"*Jó (4)*"},{"threshold":88,"grade":"5","text":"*Jeles (5)*"}]', false, CURRENT_TIMESTAMP),
('gp_letters_en', 'Letter grades (A-F)', 'custom', 'en', NULL, NULL, true,
 '[{"threshold":0,"grade":"F"},{"threshold":60,"grade":"D"},{"threshold":70,"grade":"C"},{"threshold":80,"grade":"B"},{"threshold":90,"grade":"A"}]', false, CURRENT_TIMESTAMP),
('gp_noten_de', 'Schulnoten (1-6)', 'custom', 'de', NULL, NULL, true,
 '[{"threshold":0,"grade":"6","text":"*ungenügend*"},{"threshold":30,"grade":"5","text":"*mangelhaft*"},{"threshold":50,"grade":"4","text":"*ausreichend*"},{"threshold":65,"grade":"3","text":"*befriedigend*"},{"threshold":80,"grade":"2","text":"*gut*"},{"threshold":92,"grade":"1","text":"*sehr gut*"}]', false, CURRENT_TIMESTAMP);
