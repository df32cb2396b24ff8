/**
 * The rows of the engines' reports assembled as text: a row type's columns declared once
 * ({@link io.remus.bench.report.ReportTable}) and written as a JSON object, a CSV row and a human table row,
 * and the one JSON object a report of runs is ({@link io.remus.bench.report.JsonReportWriter}), written by
 * hand ({@link io.remus.bench.report.JsonText}); the {@code remus} command declares each report's columns
 * and prints them.
 */
package io.remus.bench.report;
