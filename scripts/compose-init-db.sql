-- Airflow's metadata database beside Quire's, on the compose PostgreSQL.
CREATE DATABASE airflow OWNER quire;
