export declare const root: string;
export declare const entry: string;
export declare function build(): Promise<void>;
export declare function buildIfStale(): Promise<boolean>;
