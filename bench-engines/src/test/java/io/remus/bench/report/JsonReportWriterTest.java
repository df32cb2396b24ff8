package io.remus.bench.report;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one JSON object of a report of runs: fixed head, the report's fields, notes, runs, trailing fields. */
class JsonReportWriterTest {
    @Test
    void shouldWriteHeadFieldsNotesRunsAndTailInOrder() {
        String json = JsonReportWriter.reportObject("lock", "sim (connectx5)", b -> JsonText.field(b, "unit", JsonText.str("usec")),
                List.of("a \"note\""), List.of(1, 2), (b, run) -> b.append("{\"n\":").append(run).append('}'),
                b -> b.append(",\"speedups\":[]"));
        assertEquals("{\"tool\":\"remus\",\"test\":\"lock\",\"fabric\":\"sim (connectx5)\",\"unit\":\"usec\","
                + "\"notes\":[\"a \\\"note\\\"\"],\"runs\":[{\"n\":1},{\"n\":2}],\"speedups\":[]}", json);
    }

    @Test
    void shouldPrintOneLineWithEmptyRunsWhenThereAreNone() {
        StringWriter text = new StringWriter();
        JsonReportWriter.printReport(new PrintWriter(text), "ds", "verbs", List.of(), List.<Integer>of(), (b, run) -> { });
        assertEquals("{\"tool\":\"remus\",\"test\":\"ds\",\"fabric\":\"verbs\",\"notes\":[],\"runs\":[]}" + System.lineSeparator(),
                text.toString());
    }
}
