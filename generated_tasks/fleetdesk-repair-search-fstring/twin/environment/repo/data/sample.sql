INSERT INTO stations VALUES
  ('HBF', 'Hauptbahnhof'), ('KAN', 'Kanalstraße'), ('UNI', 'Universität Nord'), ('MES', 'Messeplatz');

INSERT INTO bikes VALUES
  ('SW-1021', 'HBF', 'City 3', 1), ('SW-1022', 'HBF', 'City 3', 1), ('SW-1037', 'KAN', 'City 3', 1),
  ('SW-1102', 'UNI', 'City 4', 1), ('SW-1109', 'UNI', 'City 4', 1), ('SW-1140', 'MES', 'Cargo 1', 1),
  ('SW-1188', NULL, 'City 3', 0), ('SW-1203', 'KAN', 'City 4', 1), ('SW-1211', 'MES', 'City 4', 1);

INSERT INTO repairs (bike, done_on, mechanic, note) VALUES
  ('SW-1021', '2026-03-02', 'Ines Duarte', 'Rear brake pads replaced, rim cleaned'),
  ('SW-1021', '2026-05-19', 'Tobias Brandt', 'Chain stretched past 0.75, new chain and cassette'),
  ('SW-1022', '2026-04-11', 'Ines Duarte', 'Front light dead: dynamo connector corroded, replaced'),
  ('SW-1037', '2026-02-27', 'Kemal Aydin', 'Rider''s side pedal loose, crank arm re-torqued'),
  ('SW-1037', '2026-06-03', 'Tobias Brandt', 'Puncture rear, tube and rim tape replaced'),
  ('SW-1102', '2026-05-02', 'Kemal Aydin', 'Gear cable frayed at the shifter, replaced and indexed'),
  ('SW-1109', '2026-03-30', 'Ines Duarte', 'Saddle clamp would not hold height, new seat post clamp'),
  ('SW-1140', '2026-01-15', 'Tobias Brandt', 'Cargo box hinge cracked, box swapped from spares'),
  ('SW-1140', '2026-06-21', 'Kemal Aydin', 'Front brake rubbing, caliper centred, pads fine'),
  ('SW-1188', '2026-04-28', 'Ines Duarte', 'Frame crack at the kickstand mount, taken out of service'),
  ('SW-1203', '2026-06-12', 'Kemal Aydin', 'Lock cable cut (attempted theft), lock replaced, reported to ops');

INSERT INTO staff VALUES
  ('iduarte', 'Ines Duarte', 'pbkdf2_sha256$260000$Jx0c9yq1$7mH0rQe3S9nW2fK8bLz4Vd6Tg1uYc5Xa'),
  ('tbrandt', 'Tobias Brandt', 'pbkdf2_sha256$260000$Qw7tN2vK$2pLs8Rf4Hb6Zm0Cx9Vn3Jd5Ky1Gu7Ta'),
  ('kaydin', 'Kemal Aydin', 'pbkdf2_sha256$260000$Ee5rU8mP$9sDk3Lf7Qz1Wx4Cv6Bn2Mh8Jg0Ty5Ra');
