/** The UI text keys the element and the components it uses can show (the widget's cut of the catalogue). */
export const WIDGET_KEYS = /^(?:widget_|widgetProxy_|timeline_|transcript_|recording_|extracted_|calls_status|calls_explain)/;
